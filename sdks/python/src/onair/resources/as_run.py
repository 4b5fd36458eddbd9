"""``client.as_run``: a channel's as-run log, what was on program and for how long (docs/as-run.md)."""

from __future__ import annotations

from typing import Any, Dict, Iterator, Optional, cast

from ..models import AsRunInterval, AsRunList
from ..pagination import paginate
from ._base import Resource, Time, iso_time, segment


class AsRun(Resource):
    """Every interval a scene or rundown item was on program, in the order they began: its values, frames, duration,
    who took and cleared it, and which outputs confirmed painting it.

    ``from_`` and ``to`` (ISO 8601 or datetimes) keep the intervals that overlap that time range; a page holds up to
    ``limit`` intervals (1–1000, 100 by default).
    """

    def list(
        self,
        channel_id: str,
        *,
        from_: Optional[Time] = None,
        to: Optional[Time] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
    ) -> AsRunList:
        """One page of the channel's as-run log."""
        response = self._transport.request("GET", self._path(channel_id), query=_query(from_, to, limit, cursor))
        return cast(AsRunList, response.data)

    def iterate(
        self, channel_id: str, *, from_: Optional[Time] = None, to: Optional[Time] = None, limit: Optional[int] = None
    ) -> Iterator[AsRunInterval]:
        """Every interval that overlaps the range, following ``nextCursor``."""
        segment("channel_id", channel_id)  # refuse a bad id now, not at the first next()
        return paginate(lambda cursor: self.list(channel_id, from_=from_, to=to, limit=limit, cursor=cursor))

    def csv(
        self,
        channel_id: str,
        *,
        from_: Optional[Time] = None,
        to: Optional[Time] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
    ) -> str:
        """The same page as CSV (RFC 4180, a header row), for a spreadsheet or a sponsor's report."""
        query = {**_query(from_, to, limit, cursor), "format": "csv"}
        return cast(str, self._transport.request("GET", self._path(channel_id), query=query, text=True).data)

    @staticmethod
    def _path(channel_id: str) -> str:
        return f"/v1/channels/{segment('channel_id', channel_id)}/as-run"


def _query(from_: Optional[Time], to: Optional[Time], limit: Optional[int], cursor: Optional[str]) -> Dict[str, Any]:
    return {"from": iso_time(from_), "to": iso_time(to), "limit": limit, "cursor": cursor}
