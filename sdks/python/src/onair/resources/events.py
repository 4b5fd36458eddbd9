"""``client.events``: the event log (kept 7 days), the same events webhooks deliver."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import Event, EventList
from ..pagination import paginate
from ._base import Resource, Time, iso_time

Since = Time


class Events(Resource):
    """Events, oldest first (docs/api.md, "Events")."""

    def list(
        self,
        *,
        channel_id: Optional[str] = None,
        type: Optional[str] = None,
        since: Optional[Since] = None,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> EventList:
        """One page of events. ``since`` (ISO 8601 or a datetime) starts there, and cannot go with ``cursor``.

        A filtered page may hold fewer events than ``limit``, or none, while ``nextCursor`` is set: follow it (or use
        :meth:`iterate`) until it is ``None``.
        """
        query = {"channelId": channel_id, "type": type, "since": iso_time(since), "cursor": cursor, "limit": limit}
        return cast(EventList, self._transport.request("GET", "/v1/events", query=query).data)

    def iterate(
        self,
        *,
        channel_id: Optional[str] = None,
        type: Optional[str] = None,
        since: Optional[Since] = None,
        limit: Optional[int] = None,
    ) -> Iterator[Event]:
        """Every event matching the filters, following ``nextCursor`` (``since`` applies to the first page only)."""
        return paginate(
            lambda cursor: self.list(
                channel_id=channel_id,
                type=type,
                since=since if cursor is None else None,
                cursor=cursor,
                limit=limit,
            )
        )
