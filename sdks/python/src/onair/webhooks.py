"""Verify onair's webhook deliveries, and sign posts to incoming hooks that require a signature.

Both directions use one scheme (docs/webhooks.md, "Verifying a delivery"; docs/incoming-hooks.md, "Signed posts"):
``X-Service-Signature`` is ``v1=`` followed by the lowercase hex HMAC-SHA256, keyed with the UTF-8 bytes of the
secret string, of ``X-Service-Timestamp`` (Unix seconds), a full stop, and the raw body bytes. While a subscription's
secret is being rolled, a delivery carries two such signatures separated by a space (the new secret's first): it
verifies with either secret.

Why raw bytes: a body parsed and serialised again (by a framework, or ``json.dumps``) rarely comes back byte for
byte, and its signature would not match. Hand :func:`verify` exactly what came off the wire.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import Any, Dict, Iterable, Optional, Protocol, Tuple, Union, cast

from .errors import WebhookVerificationError
from .models import WebhookDelivery

__all__ = [
    "verify",
    "sign",
    "signature",
    "DEFAULT_TOLERANCE",
    "TIMESTAMP_HEADER",
    "SIGNATURE_HEADER",
    "DELIVERY_HEADER",
    "EVENT_HEADER",
    "WebhookVerificationError",
]

#: Seconds a delivery's timestamp may be from the receiver's clock, either way (replay protection).
DEFAULT_TOLERANCE = 300

TIMESTAMP_HEADER = "X-Service-Timestamp"
SIGNATURE_HEADER = "X-Service-Signature"
DELIVERY_HEADER = "X-Service-Delivery"
EVENT_HEADER = "X-Service-Event"

_WHOLE_SECONDS = re.compile(r"[0-9]{1,20}")

RawBody = Union[bytes, bytearray, memoryview]


class HeaderItems(Protocol):
    """Request headers: a dict, ``http.server``'s ``self.headers``, a framework's headers: anything with items()."""

    def items(self) -> Iterable[Tuple[str, Any]]: ...


def signature(raw_body: RawBody, secret: str, timestamp: Union[int, str]) -> str:
    """The ``X-Service-Signature`` value for a body at a timestamp: ``v1=<lowercase hex HMAC-SHA256>``."""
    body = _raw(raw_body)
    message = str(timestamp).encode("ascii") + b"." + body
    digest = hmac.new(_secret_bytes(secret), message, hashlib.sha256).hexdigest()
    return "v1=" + digest


def sign(raw_body: RawBody, secret: str, timestamp: Optional[int] = None) -> Dict[str, str]:
    """The two headers that sign a post to an incoming hook created with ``requireSignature``.

    Send the headers with exactly ``raw_body`` as the request body. ``timestamp`` (Unix seconds) defaults to now; the
    server refuses one more than 300 seconds from its clock. :meth:`onair.Client.hooks.post` calls this for you.

    >>> sign(b'{"home_score":3}', "whsec_…")  # doctest: +SKIP
    {'X-Service-Timestamp': '1764150000', 'X-Service-Signature': 'v1=…'}
    """
    when = int(time.time()) if timestamp is None else int(timestamp)
    return {TIMESTAMP_HEADER: str(when), SIGNATURE_HEADER: signature(raw_body, secret, when)}


def verify(
    raw_body: RawBody,
    headers: HeaderItems,
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    now: Optional[float] = None,
) -> WebhookDelivery:
    """Check a webhook delivery and return its event (the parsed JSON body).

    Args:
        raw_body: the request body exactly as received, as bytes.
        headers: the request headers, any mapping (a dict, ``http.server``'s ``self.headers``, a framework's);
            names are matched case-insensitively.
        secret: the subscription's signing secret (``whsec_…``), shown once when it was created.
        tolerance: how many seconds the delivery's timestamp may be from ``now``, either way.
        now: the current Unix time, for tests; defaults to ``time.time()``.

    Raises:
        WebhookVerificationError: with ``code``, for the first check that fails, in this order:
            ``missing_header`` (X-Service-Timestamp, X-Service-Signature or X-Service-Delivery absent),
            ``invalid_timestamp`` (not whole Unix seconds), ``timestamp_out_of_tolerance``, ``signature_mismatch``
            (no ``v1=`` signature in the header is this secret's; each compared in constant time), ``invalid_body`` (not a JSON object), ``delivery_mismatch``
            (X-Service-Delivery is not the body's ``id``).

    Deduplicate on the returned event's ``id`` (the ``X-Service-Delivery`` header): a retry can bring an event again.
    """
    body = _raw(raw_body)
    lower = _lower_headers(headers)
    timestamp = lower.get(TIMESTAMP_HEADER.lower())
    given = lower.get(SIGNATURE_HEADER.lower())
    delivery = lower.get(DELIVERY_HEADER.lower())
    missing = [
        name
        for name, value in ((TIMESTAMP_HEADER, timestamp), (SIGNATURE_HEADER, given), (DELIVERY_HEADER, delivery))
        if value is None
    ]
    if missing:
        raise WebhookVerificationError("missing_header", f"The request has no {' or '.join(missing)} header.")
    assert timestamp is not None and given is not None and delivery is not None
    if not _WHOLE_SECONDS.fullmatch(timestamp):
        raise WebhookVerificationError(
            "invalid_timestamp", f"{TIMESTAMP_HEADER} must be whole Unix seconds, not {timestamp[:40]!r}."
        )
    clock = time.time() if now is None else now
    skew = abs(clock - int(timestamp))
    if skew > tolerance:
        raise WebhookVerificationError(
            "timestamp_out_of_tolerance",
            f"{TIMESTAMP_HEADER} is {int(skew)} s from this machine's clock; at most {tolerance} s is accepted "
            "(a replayed request, or a clock that is off).",
        )
    expected = signature(body, secret, timestamp).encode("utf-8")
    # Every signature is compared, whatever matched before: the time taken says nothing about which one did.
    matches = [hmac.compare_digest(candidate.encode("utf-8"), expected) for candidate in given.split(" ")]
    if not any(matches):
        raise WebhookVerificationError(
            "signature_mismatch",
            f"{SIGNATURE_HEADER} does not match the body: a wrong secret, or a body changed or re-serialised "
            "after it was signed.",
        )
    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        event = None
    if not isinstance(event, dict):
        raise WebhookVerificationError("invalid_body", "The signed body is not a JSON object.")
    if event.get("id") != delivery:
        raise WebhookVerificationError(
            "delivery_mismatch", f"{DELIVERY_HEADER} ({delivery[:60]}) is not the id of the event in the body."
        )
    return cast(WebhookDelivery, event)


def _raw(raw_body: RawBody) -> bytes:
    if isinstance(raw_body, (bytes, bytearray, memoryview)):
        return bytes(raw_body)
    raise TypeError(
        f"raw_body must be the body's bytes as received, not {type(raw_body).__name__}: a body decoded or "
        "serialised again may differ from what was signed."
    )


def _secret_bytes(secret: str) -> bytes:
    if not isinstance(secret, str) or not secret:
        raise TypeError("secret must be the signing secret string (whsec_…)")
    return secret.encode("utf-8")


def _lower_headers(headers: HeaderItems) -> Dict[str, str]:
    """Header names lower-cased; a list value (some frameworks give those) counts by its first item."""
    lower: Dict[str, str] = {}
    for name, value in headers.items():
        if isinstance(value, (list, tuple)):
            if not value:
                continue
            value = value[0]
        if isinstance(value, bytes):
            value = value.decode("latin-1")
        key = str(name).lower()
        if key not in lower:
            lower[key] = str(value)
    return lower
