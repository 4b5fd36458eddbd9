"""``client.rundowns``: a channel's prepared items and the calls an operator runs the show with."""

from __future__ import annotations

from typing import Optional, cast

from ..models import FocusIn, ItemIn, ItemUpdate, Rundown, RundownIn, RundownItem, RundownList, RundownUpdate, State
from ._base import Resource, idempotency, segment


class Rundowns(Resource):
    """Rundowns of a channel (docs/rundowns.md): items, each a scene with its own values, and a shared focus.

    Every operator and node sees the same rundown. Edits send the ``version`` they read; a stale one raises
    ``ApiError`` with code ``version_conflict`` (409), whose :attr:`~onair.ApiError.current` is the record as it is
    now. Cue, play next and stop answer the channel's :class:`~onair.models.State`.
    """

    def create(self, channel_id: str, rundown: RundownIn, *, idempotency_key: Optional[str] = None) -> Rundown:
        """Create a rundown: ``{"name": ...}``. Sends an ``Idempotency-Key``."""
        answer = self._transport.request(
            "POST", self._base(channel_id), json_body=rundown, idempotency_key=idempotency(idempotency_key)
        )
        return cast(Rundown, answer.data)

    def list(self, channel_id: str) -> RundownList:
        """Every rundown of the channel, with its items, in creation order: ``{"data": [...]}``."""
        return cast(RundownList, self._transport.request("GET", self._base(channel_id)).data)

    def get(self, channel_id: str, rundown_id: str) -> Rundown:
        return cast(Rundown, self._transport.request("GET", self._path(channel_id, rundown_id)).data)

    def update(self, channel_id: str, rundown_id: str, changes: RundownUpdate) -> Rundown:
        """Rename a rundown: ``{"name": ..., "version": <the version you read>}``."""
        path = self._path(channel_id, rundown_id)
        return cast(Rundown, self._transport.request("PATCH", path, json_body=changes).data)

    def delete(self, channel_id: str, rundown_id: str) -> None:
        """Delete a rundown; what is on air stays on air."""
        self._transport.request("DELETE", self._path(channel_id, rundown_id))

    def add_item(
        self, channel_id: str, rundown_id: str, item: ItemIn, *, idempotency_key: Optional[str] = None
    ) -> RundownItem:
        """Add an item: ``{"sceneId": ..., "values"?, "label"?, "notes"?, "durationMs"?, "position"?}``.

        ``values`` are the scene's item inputs for this item; ``durationMs`` takes it off air by itself after that
        long; ``position`` places it (default: last). Sends an ``Idempotency-Key``.
        """
        path = f"{self._path(channel_id, rundown_id)}/items"
        answer = self._transport.request("POST", path, json_body=item, idempotency_key=idempotency(idempotency_key))
        return cast(RundownItem, answer.data)

    def update_item(self, channel_id: str, rundown_id: str, item_id: str, changes: ItemUpdate) -> RundownItem:
        """Edit or move (``position``) an item: the fields to change and ``"version"``, the one you read.

        A stale version raises ``ApiError`` ``version_conflict`` with the item as it is now in ``current``. An edit
        never changes what is on air (:meth:`onair.resources.Playout.update` does).
        """
        path = self._item_path(channel_id, rundown_id, item_id)
        return cast(RundownItem, self._transport.request("PATCH", path, json_body=changes).data)

    def duplicate_item(
        self, channel_id: str, rundown_id: str, item_id: str, *, idempotency_key: Optional[str] = None
    ) -> RundownItem:
        """Copy an item; the copy comes right after it. Sends an ``Idempotency-Key``."""
        path = f"{self._item_path(channel_id, rundown_id, item_id)}/duplicate"
        answer = self._transport.request("POST", path, idempotency_key=idempotency(idempotency_key))
        return cast(RundownItem, answer.data)

    def delete_item(self, channel_id: str, rundown_id: str, item_id: str) -> None:
        self._transport.request("DELETE", self._item_path(channel_id, rundown_id, item_id))

    def focus(self, channel_id: str, rundown_id: str, to: FocusIn) -> Rundown:
        """Move the shared focus: ``{"itemId": ...}`` or ``{"move": "next" | "previous" | "first" | "last"}``."""
        path = f"{self._path(channel_id, rundown_id)}/focus"
        return cast(Rundown, self._transport.request("POST", path, json_body=to).data)

    def cue(self, channel_id: str, rundown_id: str, item_id: Optional[str] = None) -> State:
        """Cue an item (default: the focused one) into preview, with its values."""
        return self._play(channel_id, rundown_id, "cue", item_id)

    def play_next(self, channel_id: str, rundown_id: str) -> State:
        """Cue the next item and take it to air in one frame; the focus moves on.

        Raises ``ApiError`` ``conflict`` (409) when no item is left to play.
        """
        path = f"{self._path(channel_id, rundown_id)}/play-next"
        return cast(State, self._transport.request("POST", path).data)

    def stop(self, channel_id: str, rundown_id: str, item_id: Optional[str] = None) -> State:
        """Take an item off air (default: this rundown's items on air)."""
        return self._play(channel_id, rundown_id, "stop", item_id)

    def _play(self, channel_id: str, rundown_id: str, op: str, item_id: Optional[str]) -> State:
        body = {} if item_id is None else {"itemId": item_id}
        path = f"{self._path(channel_id, rundown_id)}/{op}"
        return cast(State, self._transport.request("POST", path, json_body=body).data)

    def _base(self, channel_id: str) -> str:
        return f"/v1/channels/{segment('channel_id', channel_id)}/rundowns"

    def _path(self, channel_id: str, rundown_id: str) -> str:
        return f"{self._base(channel_id)}/{segment('rundown_id', rundown_id)}"

    def _item_path(self, channel_id: str, rundown_id: str, item_id: str) -> str:
        return f"{self._path(channel_id, rundown_id)}/items/{segment('item_id', item_id)}"
