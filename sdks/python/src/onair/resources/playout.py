"""``client.playout``: what goes on air (preview, program, take, clear, update), triggers, clocks, undo and redo."""

from __future__ import annotations

from typing import Optional, Union, cast

from ..models import (
    ClearIn,
    ClockActionIn,
    ClockResult,
    ContinueIn,
    FrameResult,
    SceneRef,
    State,
    TakeIn,
    TriggerBody,
    UpdateIn,
)
from ._base import Resource, segment


class Playout(Resource):
    """Playout of a channel (docs/api.md, "Playout" and "Triggers and clocks").

    Each call is applied at the channel's next frame and answered once stored; preview, program, take, clear,
    update, undo and redo answer the channel's :class:`~onair.models.State`. All count against the channel's 30
    updates per second.

    What goes on a bus is an instance: a scene id, ``{"sceneId": ..., "values": {...}}`` (the scene with its own
    item values) or ``{"itemId": ...}`` (a rundown item, with its values).
    """

    def preview(self, channel_id: str, scene: Union[str, SceneRef]) -> State:
        """Cue an instance on preview, on its scene's layer: a scene id, ``{"sceneId", "values"?}``, ``{"itemId"}``."""
        return self._op(channel_id, "preview", _scene_ref(scene))

    def program(self, channel_id: str, scene: Union[str, SceneRef]) -> State:
        """Cut an instance straight to air on its scene's layer (no transition); ``scene`` as for :meth:`preview`."""
        return self._op(channel_id, "program", _scene_ref(scene))

    def update(self, channel_id: str, update: UpdateIn) -> State:
        """Change item values of the instance on air at the next frame: ``{"values": {...}, "layer"? or "sceneId"?}``.

        The values are merged into the instance's own (``None`` gives an input back to the channel). Name the layer
        or the scene when several are on air. A rundown item's own values stay as they are.
        """
        return self._op(channel_id, "update", update)

    def continue_(self, channel_id: str, options: Optional[ContinueIn] = None) -> FrameResult:
        """The next step of the scene on air (its ``next`` trigger), or only of the one on ``{"layer": n}``.

        ``{"step": n}`` sends the OGraf graphics on air to step ``n`` instead (held to their last step).

        Raises ``ApiError`` with code ``unknown_trigger`` (404) when no scene on air has a next step. (``continue``
        is a Python keyword, hence the underscore.)
        """
        path = f"/v1/channels/{segment('channel_id', channel_id)}/continue"
        return cast(FrameResult, self._transport.request("POST", path, json_body=options or {}).data)

    def undo(self, channel_id: str) -> State:
        """Take back the channel's last on-air action by a person, a key or the schedule.

        The layers and values it touched go back as they were, at the next frame; what incoming hooks set is never
        undone. Raises ``ApiError`` with code ``nothing_to_undo`` (409) when there is nothing to undo.
        """
        return self._op(channel_id, "undo", None)

    def redo(self, channel_id: str) -> State:
        """Do again the last action undone; ``ApiError`` ``nothing_to_undo`` (409) when there is none."""
        return self._op(channel_id, "redo", None)

    def take(self, channel_id: str, options: Optional[TakeIn] = None) -> State:
        """Move every cued layer to air with its transitions, or only ``{"layer": n}``.

        Raises ``ApiError`` with code ``preview_empty`` when nothing is cued.
        """
        return self._op(channel_id, "take", options)

    def clear(self, channel_id: str, options: Optional[ClearIn] = None) -> State:
        """Take everything off air, or one ``{"layer": n}``, or one ``{"sceneId": ...}``."""
        return self._op(channel_id, "clear", options)

    def fire_trigger(self, channel_id: str, name: str, options: Optional[TriggerBody] = None) -> FrameResult:
        """Play a named trigger once on every scene on program or preview that declares it.

        ``{"payload": ...}`` is what an OGraf graphic's custom action runs with; ``{"layer": n}`` fires it on that
        layer's scene only.
        """
        path = f"/v1/channels/{segment('channel_id', channel_id)}/triggers/{segment('name', name)}"
        if options is None:
            return cast(FrameResult, self._transport.request("POST", path).data)
        return cast(FrameResult, self._transport.request("POST", path, json_body=options).data)

    def clock(
        self,
        channel_id: str,
        name: str,
        action: Union[str, ClockActionIn],
        ms: Optional[int] = None,
    ) -> ClockResult:
        """Drive a clock input: ``action`` is ``start``, ``stop``, ``set``, ``reset``, ``adjust`` or ``period``.

        ``ms`` is required for ``set`` (the time) and ``adjust`` (milliseconds to add). ``action`` may also be the
        whole body, ``{"action": "set", "ms": 60000}`` or ``{"action": "period", "period": 1}`` (``period`` alone
        moves to the next period).
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
