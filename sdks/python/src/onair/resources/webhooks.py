"""``client.webhooks``: outgoing webhook subscriptions, their delivery log and ping (docs/webhooks.md).

To check a delivery in your receiver, use :func:`onair.webhooks.verify` (the module, not this resource).
"""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import (
    Webhook,
    WebhookAttempt,
    WebhookAttemptList,
    WebhookCreated,
    WebhookIn,
    WebhookList,
    WebhookPing,
    WebhookSecretRolled,
    WebhookSecretRollIn,
)
from ..pagination import paginate
from ._base import Resource, idempotency, page_query, segment


class Webhooks(Resource):
    """Subscriptions; needs ``webhooks:manage``."""

    def create(self, webhook: WebhookIn, *, idempotency_key: Optional[str] = None) -> WebhookCreated:
        """Subscribe an https URL: ``{"url": ..., "events"?: [...], "channelId"?, "description"?}``.

        The answer's ``secret`` (``whsec_…``) is shown only here: keep it to verify deliveries.
        """
        answer = self._transport.request(
            "POST", "/v1/webhooks", json_body=webhook, idempotency_key=idempotency(idempotency_key)
        )
        return cast(WebhookCreated, answer.data)

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> WebhookList:
        return cast(WebhookList, self._transport.request("GET", "/v1/webhooks", query=page_query(limit, cursor)).data)

    def iterate(self, *, limit: Optional[int] = None) -> Iterator[Webhook]:
        return paginate(lambda cursor: self.list(limit=limit, cursor=cursor))

    def get(self, webhook_id: str) -> Webhook:
        return cast(Webhook, self._transport.request("GET", f"/v1/webhooks/{segment('webhook_id', webhook_id)}").data)

    def delete(self, webhook_id: str) -> None:
        self._transport.request("DELETE", f"/v1/webhooks/{segment('webhook_id', webhook_id)}")

    def roll_secret(
        self,
        webhook_id: str,
        options: Optional[WebhookSecretRollIn] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> WebhookSecretRolled:
        """Give the subscription a new signing secret; the answer's ``secret`` is shown only here.

        The old secret keeps signing deliveries beside the new one for ``{"overlapSeconds": ...}`` (default a day;
        0 stops it at once), so receivers can move to the new one without missing a delivery.
        """
        path = f"/v1/webhooks/{segment('webhook_id', webhook_id)}/secret"
        answer = self._transport.request(
            "POST", path, json_body=options or {}, idempotency_key=idempotency(idempotency_key)
        )
        return cast(WebhookSecretRolled, answer.data)

    def deliveries(
        self, webhook_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> WebhookAttemptList:
        """One page of the subscription's delivery log: every attempt and drop, oldest first."""
        path = f"/v1/webhooks/{segment('webhook_id', webhook_id)}/deliveries"
        return cast(WebhookAttemptList, self._transport.request("GET", path, query=page_query(limit, cursor)).data)

    def iter_deliveries(self, webhook_id: str, *, limit: Optional[int] = None) -> Iterator[WebhookAttempt]:
        segment("webhook_id", webhook_id)
        return paginate(lambda cursor: self.deliveries(webhook_id, limit=limit, cursor=cursor))

    def ping(self, webhook_id: str, *, idempotency_key: Optional[str] = None) -> WebhookPing:
        """Send a signed ``webhook.ping`` event now and answer how the endpoint took it."""
        path = f"/v1/webhooks/{segment('webhook_id', webhook_id)}/ping"
        answer = self._transport.request("POST", path, idempotency_key=idempotency(idempotency_key))
        return cast(WebhookPing, answer.data)
