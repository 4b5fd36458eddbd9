"""``client.scenes``: a channel's scenes, created from a template or a definition (docs/scenes.md)."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import Scene, SceneIn, SceneList, SceneUpdate, SceneVersionList
from ..pagination import paginate
from ._base import Resource, idempotency, page_query, segment


class Scenes(Resource):
    """Scenes of a channel (docs/api.md, "Scenes and templates")."""

    def create(
        self,
        channel_id: str,
        scene: SceneIn,
        dry_run: bool = False,
        *,
        idempotency_key: Optional[str] = None,
    ) -> Scene:
        """Create a scene: ``{"name": ..., "template": "scoreboard"}`` or ``{"name": ..., "definition": {...}}``.

        With ``dry_run=True`` the server runs every check and answers the scene as it would be saved (id
        ``sc_dryrun``), saving nothing. Sends an ``Idempotency-Key``.
        """
        path = f"/v1/channels/{segment('channel_id', channel_id)}/scenes"
        answer = self._transport.request(
            "POST",
            path,
            query={"dryRun": True} if dry_run else None,
            json_body=scene,
            idempotency_key=idempotency(idempotency_key),
        )
        return cast(Scene, answer.data)

    def list(self, channel_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> SceneList:
        """One page of the channel's scenes, oldest first."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/scenes"
        return cast(SceneList, self._transport.request("GET", path, query=page_query(limit, cursor)).data)

    def iterate(self, channel_id: str, *, limit: Optional[int] = None) -> Iterator[Scene]:
        """Every scene of the channel, following ``nextCursor``."""
        segment("channel_id", channel_id)  # refuse a bad id now, not at the first next()
        return paginate(lambda cursor: self.list(channel_id, limit=limit, cursor=cursor))

    def get(self, channel_id: str, scene_id: str) -> Scene:
        path = f"/v1/channels/{segment('channel_id', channel_id)}/scenes/{segment('scene_id', scene_id)}"
        return cast(Scene, self._transport.request("GET", path).data)

    def replace(self, channel_id: str, scene_id: str, scene: SceneUpdate, dry_run: bool = False) -> Scene:
        """Replace a scene's definition (and name): ``{"definition": {...}, "name"?}``; ``dry_run`` saves nothing."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/scenes/{segment('scene_id', scene_id)}"
        query = {"dryRun": True} if dry_run else None
        return cast(Scene, self._transport.request("PUT", path, query=query, json_body=scene).data)

    def versions(self, channel_id: str, scene_id: str) -> SceneVersionList:
        """The scene's saved versions, newest first, each with who saved it (its last 50 saves)."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/scenes/{segment('scene_id', scene_id)}/versions"
        return cast(SceneVersionList, self._transport.request("GET", path).data)

    def restore_version(
        self, channel_id: str, scene_id: str, version: int, *, idempotency_key: Optional[str] = None
    ) -> Scene:
        """Save a version's name and definition again, with the checks of ``replace``, as a new version."""
        scene = f"/v1/channels/{segment('channel_id', channel_id)}/scenes/{segment('scene_id', scene_id)}"
        path = f"{scene}/versions/{segment('version', str(version))}/restore"
        answer = self._transport.request("POST", path, idempotency_key=idempotency(idempotency_key))
        return cast(Scene, answer.data)

    def delete(self, channel_id: str, scene_id: str) -> None:
        """Delete a scene (409 ``conflict`` while it is on program or preview)."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/scenes/{segment('scene_id', scene_id)}"
        self._transport.request("DELETE", path)
