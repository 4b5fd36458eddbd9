"""``client.history``: a channel's on-air history, the actions undo and redo walk (docs/rundowns.md, "Undo")."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import HistoryAction, HistoryList
from ..pagination import paginate
from ._base import Resource, page_query, segment


class History(Resource):
    """What was done on air, newest first, each action with who did it (a key, a dashboard user, the schedule).

    An ``undo`` or ``redo`` names the action it took back or did again in ``of``. What incoming hooks set is not
    recorded.
    """

    def list(self, channel_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> HistoryList:
        """One page of the channel's history, newest first."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/history"
        return cast(HistoryList, self._transport.request("GET", path, query=page_query(limit, cursor)).data)

    def iterate(self, channel_id: str, *, limit: Optional[int] = None) -> Iterator[HistoryAction]:
        """Every recorded action of the channel, newest first, following ``nextCursor``."""
        segment("channel_id", channel_id)  # refuse a bad id now, not at the first next()
        return paginate(lambda cursor: self.list(channel_id, limit=limit, cursor=cursor))
