"""``client.sources``: a channel's data sources, JSON feeds and CSVs (published Google Sheets) the server polls for
values (docs/data-sources.md)."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import (
    Source,
    SourceDryRun,
    SourceFetch,
    SourceFetchList,
    SourceIn,
    SourceList,
    SourcePatch,
    SourceRowMove,
)
from ..pagination import paginate
from ._base import Resource, idempotency, segment


class Sources(Resource):
    """Data sources of a channel; reading needs ``channels:read``, changing ``channels:write``, a refresh or a cursor
    move ``inputs:write``."""

    def create(self, channel_id: str, source: SourceIn, *, idempotency_key: Optional[str] = None) -> Source:
        """Add a source: ``{"type": "json_url", "url": ..., "mapping"?: {"home.score": "scoreA"}, "intervalMs"?}``, or
        ``{"type": "csv_url", "url": ..., "row"?: {"by": "cursor"}, "table"?: {"input": "standings"}}``. It is
        fetched at once, then every ``intervalMs``."""
        answer = self._transport.request(
            "POST", self._base(channel_id), json_body=source, idempotency_key=idempotency(idempotency_key)
        )
        return cast(Source, answer.data)

    def list(self, channel_id: str) -> SourceList:
        """Every source of the channel, with its status, in one page."""
        return cast(SourceList, self._transport.request("GET", self._base(channel_id)).data)

    def iterate(self, channel_id: str) -> Iterator[Source]:
        segment("channel_id", channel_id)
        return paginate(lambda _cursor: self.list(channel_id))

    def get(self, channel_id: str, source_id: str) -> Source:
        return cast(Source, self._transport.request("GET", self._path(channel_id, source_id)).data)

    def update(self, channel_id: str, source_id: str, changes: SourcePatch) -> Source:
        """Change any of create's fields; an edited source is fetched at once."""
        return cast(Source, self._transport.request("PATCH", self._path(channel_id, source_id), json_body=changes).data)

    def pause(self, channel_id: str, source_id: str) -> Source:
        """Stop polling it; its values stay on air."""
        return self.update(channel_id, source_id, {"paused": True})

    def resume(self, channel_id: str, source_id: str) -> Source:
        """Poll it again, fetching at once."""
        return self.update(channel_id, source_id, {"paused": False})

    def delete(self, channel_id: str, source_id: str) -> None:
        self._transport.request("DELETE", self._path(channel_id, source_id))

    def test(self, channel_id: str, source: SourceIn) -> SourceDryRun:
        """A dry run: fetch and map once, changing nothing. Answers ``values``, ``unmapped``, ``fetch`` and
        ``error`` (why the source would fail now, or None)."""
        path = self._base(channel_id) + "/test"
        return cast(SourceDryRun, self._transport.request("POST", path, json_body=source).data)

    def refresh(self, channel_id: str, source_id: str) -> Source:
        """Fetch now and apply what changed; the answer's ``status`` says how it went."""
        path = self._path(channel_id, source_id) + "/refresh"
        return cast(Source, self._transport.request("POST", path).data)

    def row(self, channel_id: str, source_id: str, move: SourceRowMove) -> Source:
        """Move a CSV source's cursor, ``{"move": "next" | "previous" | "first"}`` or ``{"number": 3}``, and apply
        the row it lands on."""
        path = self._path(channel_id, source_id) + "/row"
        return cast(Source, self._transport.request("POST", path, json_body=move).data)

    def fetches(self, channel_id: str, source_id: str) -> SourceFetchList:
        """The source's last 50 fetches, newest first (one page)."""
        path = self._path(channel_id, source_id) + "/fetches"
        return cast(SourceFetchList, self._transport.request("GET", path).data)

    def iter_fetches(self, channel_id: str, source_id: str) -> Iterator[SourceFetch]:
        self._path(channel_id, source_id)
        return paginate(lambda _cursor: self.fetches(channel_id, source_id))

    @staticmethod
    def _base(channel_id: str) -> str:
        return f"/v1/channels/{segment('channel_id', channel_id)}/sources"

    @classmethod
    def _path(cls, channel_id: str, source_id: str) -> str:
        return f"{cls._base(channel_id)}/{segment('source_id', source_id)}"
