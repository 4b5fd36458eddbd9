"""``client.playout``: what goes on air (preview, program, take, clear), triggers and clocks."""

from __future__ import annotations

from typing import Optional, Union, cast

from ..models import ClearIn, ClockActionIn, ClockResult, FrameResult, SceneRef, State, TakeIn
from ._base import Resource, segment


class Playout(Resource):
    """Playout of a channel (docs/api.md, "Playout" and "Triggers and clocks").

    Each call is applied at the channel's next frame and answered once stored; preview, program, take and clear
    answer the channel's :class:`~onair.models.State`. All count against the channel's 30 updates per second.
    """

    def preview(self, channel_id: str, scene: Union[str, SceneRef]) -> State:
        """Cue a scene on preview, on its layer: ``scene`` is its id or ``{"sceneId": ...}``."""
        return self._op(channel_id, "preview", _scene_ref(scene))

    def program(self, channel_id: str, scene: Union[str, SceneRef]) -> State:
        """Cut a scene straight to air on its layer (no transition)."""
        return self._op(channel_id, "program", _scene_ref(scene))

    def take(self, channel_id: str, options: Optional[TakeIn] = None) -> State:
        """Move every cued layer to air with its transitions, or only ``{"layer": n}``.

        Raises ``ApiError`` with code ``preview_empty`` when nothing is cued.
        """
        return self._op(channel_id, "take", options)

    def clear(self, channel_id: str, options: Optional[ClearIn] = None) -> State:
        """Take everything off air, or one ``{"layer": n}``, or one ``{"sceneId": ...}``."""
        return self._op(channel_id, "clear", options)

    def fire_trigger(self, channel_id: str, name: str) -> FrameResult:
        """Play a named trigger once on every scene on program or preview that declares it."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/triggers/{segment('name', name)}"
        return cast(FrameResult, self._transport.request("POST", path).data)

    def clock(
        self,
        channel_id: str,
        name: str,
        action: Union[str, ClockActionIn],
        ms: Optional[int] = None,
    ) -> ClockResult:
        """Drive a clock input: ``action`` is ``start``, ``stop``, ``set``, ``reset`` or ``adjust``.

        ``ms`` is required for ``set`` (the time) and ``adjust`` (milliseconds to add). ``action`` may also be the
        whole body, ``{"action": "set", "ms": 60000}``.
        """
        if isinstance(action, str):
            body: ClockActionIn = {"action": action}  # type: ignore[typeddict-item]
            if ms is not None:
                body["ms"] = ms
        else:
            if ms is not None:
                raise ValueError("give ms inside the action body, or pass the action as a string")
            body = action
        path = f"/v1/channels/{segment('channel_id', channel_id)}/clocks/{segment('name', name)}"
        return cast(ClockResult, self._transport.request("POST", path, json_body=body).data)

    def _op(self, channel_id: str, op: str, body: object) -> State:
        path = f"/v1/channels/{segment('channel_id', channel_id)}/{op}"
        if body is None:
            return cast(State, self._transport.request("POST", path).data)
        return cast(State, self._transport.request("POST", path, json_body=body).data)


def _scene_ref(scene: Union[str, SceneRef]) -> SceneRef:
    if isinstance(scene, str):
        return {"sceneId": scene}
    return scene
