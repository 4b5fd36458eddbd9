"""``client.incoming_hooks``: a channel's incoming webhooks, the URLs scorekeepers post to (docs/incoming-hooks.md).

To post to one, use ``client.hooks.post``.
"""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import (
    IncomingHook,
    IncomingHookCreated,
    IncomingHookDelivery,
    IncomingHookDeliveryList,
    IncomingHookIn,
    IncomingHookList,
    IncomingHookPatch,
    IncomingHookRefusalList,
)
from ..pagination import paginate
from ._base import Resource, idempotency, segment


class IncomingHooks(Resource):
    """Incoming hooks of a channel; reading needs ``channels:read``, changing ``channels:write``."""

    def create(
        self, channel_id: str, hook: Optional[IncomingHookIn] = None, *, idempotency_key: Optional[str] = None
    ) -> IncomingHookCreated:
        """Add a hook: ``{"name"?, "mapping"?: {"home_score": "scoreA"}, "requireSignature"?: True}``.

        The answer's ``url`` (its token is the credential) and ``secret`` are shown only here.
        """
        path = f"/v1/channels/{segment('channel_id', channel_id)}/incoming-hooks"
        answer = self._transport.request(
            "POST", path, json_body=hook if hook is not None else {}, idempotency_key=idempotency(idempotency_key)
        )
        return cast(IncomingHookCreated, answer.data)

    def list(self, channel_id: str) -> IncomingHookList:
        """Every hook of the channel, in one page (never their URL or secret)."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/incoming-hooks"
        return cast(IncomingHookList, self._transport.request("GET", path).data)

    def iterate(self, channel_id: str) -> Iterator[IncomingHook]:
        segment("channel_id", channel_id)
        return paginate(lambda _cursor: self.list(channel_id))

    def get(self, channel_id: str, hook_id: str) -> IncomingHook:
        return cast(IncomingHook, self._transport.request("GET", self._path(channel_id, hook_id)).data)

    def update(self, channel_id: str, hook_id: str, changes: IncomingHookPatch) -> IncomingHook:
        """Rename a hook or change its mapping: ``{"name"?, "mapping"?}``; its URL stays."""
        return cast(
            IncomingHook, self._transport.request("PATCH", self._path(channel_id, hook_id), json_body=changes).data
        )

    def delete(self, channel_id: str, hook_id: str) -> None:
        """Delete a hook: its URL answers 404 at once."""
        self._transport.request("DELETE", self._path(channel_id, hook_id))

    def deliveries(self, channel_id: str, hook_id: str) -> IncomingHookDeliveryList:
        """The hook's last 50 posts past its door, newest first, failed ones included (one page)."""
        path = self._path(channel_id, hook_id) + "/deliveries"
        return cast(IncomingHookDeliveryList, self._transport.request("GET", path).data)

    def iter_deliveries(self, channel_id: str, hook_id: str) -> Iterator[IncomingHookDelivery]:
        self._path(channel_id, hook_id)
        return paginate(lambda _cursor: self.deliveries(channel_id, hook_id))

    def refusals(self, channel_id: str, hook_id: str) -> IncomingHookRefusalList:
        """Posts refused at the hook's door (rate limited, bad signature, replayed): one line per second with a
        ``count``, newest first, the last 50 seconds that had any (one page)."""
        path = self._path(channel_id, hook_id) + "/refusals"
        return cast(IncomingHookRefusalList, self._transport.request("GET", path).data)

    @staticmethod
    def _path(channel_id: str, hook_id: str) -> str:
        return f"/v1/channels/{segment('channel_id', channel_id)}/incoming-hooks/{segment('hook_id', hook_id)}"
