"""``client.keys``: API keys (the secret is shown once, in the answer of ``create``)."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import Key, KeyCreated, KeyIn, KeyList
from ..pagination import paginate
from ._base import Resource, idempotency, page_query, segment


class Keys(Resource):
    """API keys of the workspace (docs/api.md, "API keys"); needs ``keys:manage``."""

    def create(self, key: KeyIn, *, idempotency_key: Optional[str] = None) -> KeyCreated:
        """Create a key: ``{"name": ..., "permissions": [...], "channelIds"?: [...]}``; keep its ``secret`` now."""
        answer = self._transport.request(
            "POST", "/v1/keys", json_body=key, idempotency_key=idempotency(idempotency_key)
        )
        return cast(KeyCreated, answer.data)

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> KeyList:
        return cast(KeyList, self._transport.request("GET", "/v1/keys", query=page_query(limit, cursor)).data)

    def iterate(self, *, limit: Optional[int] = None) -> Iterator[Key]:
        return paginate(lambda cursor: self.list(limit=limit, cursor=cursor))

    def get(self, key_id: str) -> Key:
        return cast(Key, self._transport.request("GET", f"/v1/keys/{segment('key_id', key_id)}").data)

    def revoke(self, key_id: str) -> None:
        """Revoke a key at once (revoking a revoked key is fine)."""
        self._transport.request("DELETE", f"/v1/keys/{segment('key_id', key_id)}")
