"""``client.assets``: the workspace's asset library (images and fonts, typed from their bytes; docs/assets.md)."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import Asset, AssetList, AssetUploaded
from ..pagination import paginate
from ._base import Resource, idempotency, page_query, segment


class Assets(Resource):
    """Upload, list, read and delete assets.

    Set an ``asset`` input to an image's ``path`` (or ``url``), and name a font's ``path`` in a text's ``fontFamily``.
    """

    def upload(self, data: bytes, name: str, *, idempotency_key: Optional[str] = None) -> AssetUploaded:
        """Upload a file's bytes (``name`` is shown in lists). The same bytes again answer the asset that holds them
        (``created`` is then ``False``). Needs ``channels:write``."""
        answer = self._transport.request(
            "POST",
            "/v1/assets",
            query={"name": name},
            content=bytes(data),
            headers={"Content-Type": "application/octet-stream"},
            idempotency_key=idempotency(idempotency_key),
        )
        return cast(AssetUploaded, answer.data)

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> AssetList:
        return cast(AssetList, self._transport.request("GET", "/v1/assets", query=page_query(limit, cursor)).data)

    def iterate(self, *, limit: Optional[int] = None) -> Iterator[Asset]:
        return paginate(lambda cursor: self.list(limit=limit, cursor=cursor))

    def get(self, asset_id: str) -> Asset:
        return cast(Asset, self._transport.request("GET", f"/v1/assets/{segment('asset_id', asset_id)}").data)

    def delete(self, asset_id: str) -> None:
        """Delete an asset; refused (409 ``conflict``, naming the scenes) while a scene uses it."""
        self._transport.request("DELETE", f"/v1/assets/{segment('asset_id', asset_id)}")
