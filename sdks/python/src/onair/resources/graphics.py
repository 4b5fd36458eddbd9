"""``client.graphics``: the workspace's imported OGraf graphics (docs/ograf.md)."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import Graphic, GraphicList, GraphicsUploaded
from ..pagination import paginate
from ._base import Resource, idempotency, page_query, segment


class Graphics(Resource):
    """Import, list, read and delete OGraf graphics.

    Make a scene of one with ``client.channels.scenes.create(channel_id, {"name": ..., "graphic": graphic["id"]})``.
    """

    def upload(self, zip_data: bytes, *, idempotency_key: Optional[str] = None) -> GraphicsUploaded:
        """Import a zipped OGraf package: one graphic per ``*.ograf.json`` in it. The same id and version again answer
        the graphic held (``created`` is then ``False``). Needs ``channels:write``."""
        answer = self._transport.request(
            "POST",
            "/v1/graphics",
            content=bytes(zip_data),
            headers={"Content-Type": "application/zip"},
            idempotency_key=idempotency(idempotency_key),
        )
        return cast(GraphicsUploaded, answer.data)

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> GraphicList:
        return cast(GraphicList, self._transport.request("GET", "/v1/graphics", query=page_query(limit, cursor)).data)

    def iterate(self, *, limit: Optional[int] = None) -> Iterator[Graphic]:
        return paginate(lambda cursor: self.list(limit=limit, cursor=cursor))

    def get(self, graphic_id: str) -> Graphic:
        return cast(Graphic, self._transport.request("GET", f"/v1/graphics/{segment('graphic_id', graphic_id)}").data)

    def delete(self, graphic_id: str) -> None:
        """Delete a graphic and its files; refused (409 ``conflict``, naming the scenes) while a scene uses it."""
        self._transport.request("DELETE", f"/v1/graphics/{segment('graphic_id', graphic_id)}")
