"""The SDK's exceptions: one base class, and one class per way a call can fail.

Callers branch on *why* a call failed: the server refused it (:class:`ApiError`, with the problem document's stable
``code``), it never got an answer (:class:`TransportError`: retrying may be safe with the same idempotency key), or a
webhook delivery failed verification (:class:`WebhookVerificationError`). All derive from :class:`OnairError`, so one
``except onair.OnairError`` catches everything the SDK raises on purpose.
"""

from __future__ import annotations

import email.utils
import json
import math
import time
from http import HTTPStatus
from typing import Any, Dict, List, Optional, Protocol

__all__ = ["OnairError", "ApiError", "TransportError", "WebhookVerificationError", "Headers"]


class Headers(Protocol):
    """Response headers, looked up case-insensitively: ``http.client``'s message, or any mapping."""

    def get(self, __name: str) -> Optional[str]: ...


class OnairError(Exception):
    """Base class of every exception the SDK raises on purpose."""


class ApiError(OnairError):
    """The server answered with an error status (4xx or 5xx).

    The fields come from the RFC 9457 problem document the API sends (``application/problem+json``). ``code`` is
    stable and is what to match on (``not_found``, ``invalid_request``, ``rate_limited``…). When the body was not a
    problem document (a proxy's HTML page, say), ``code`` is ``http_<status>`` and ``detail`` quotes the body's start.

    Attributes:
        status: the HTTP status.
        code: the problem's ``code``.
        title: the code's fixed title.
        detail: what went wrong in this case, for people.
        errors: ``[{"path": ..., "message": ...}]``, one per field at fault (empty when the server gave none).
        request_id: the answer's ``X-Request-Id``: quote it when asking about a failure, it is on the server's log.
        retry_after: ``Retry-After`` in seconds when the answer had one (429, 503), else ``None``.
        problem: the whole problem document as a dict: codes add members (``permission``, ``input``, ``closest``,
            ``bucket``, ``current``…).
        headers: the answer's headers (case-insensitive ``get``).
    """

    def __init__(
        self,
        status: int,
        code: str,
        title: str,
        detail: str,
        errors: Optional[List[Dict[str, str]]] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[int] = None,
        problem: Optional[Dict[str, Any]] = None,
        headers: Optional[Headers] = None,
    ) -> None:
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors: List[Dict[str, str]] = list(errors or [])
        self.request_id = request_id
        self.retry_after = retry_after
        self.problem: Dict[str, Any] = dict(problem or {})
        self.headers = headers
        super().__init__(self._message())

    @property
    def current(self) -> Any:
        """On a 409 ``version_conflict`` (an edit that sent a stale ``version``): the record as it is now.

        That is the rundown item or rundown you meant to change, with its current ``version``, so you can show it
        and redo the edit on it. ``None`` on other errors.
        """
        return self.problem.get("current")

    def __reduce__(self) -> Any:
        # Exceptions pickle their args; this one is built from its fields (multiprocessing, caches).
        fields = (self.status, self.code, self.title, self.detail, self.errors, self.request_id, self.retry_after,
                  self.problem, None)
        return (type(self), fields)

    def _message(self) -> str:
        text = f"{self.status} {self.code}: {self.detail}"
        if self.request_id:
            text += f" (request id {self.request_id})"
        return text

    @classmethod
    def from_response(cls, status: int, headers: Headers, body: bytes) -> "ApiError":
        """Build the error for an answer: from its problem document when it has one, from the status otherwise."""
        request_id = headers.get("X-Request-Id")
        retry_after = parse_retry_after(headers.get("Retry-After"))
        problem = _problem(body)
        if problem is not None:
            errors = problem.get("errors")
            return cls(
                status=status,
                code=str(problem["code"]),
                title=str(problem.get("title") or _phrase(status)),
                detail=str(problem.get("detail") or problem.get("title") or _phrase(status)),
                errors=[e for e in errors if isinstance(e, dict)] if isinstance(errors, list) else None,
                request_id=request_id,
                retry_after=retry_after,
                problem=problem,
                headers=headers,
            )
        text = body.decode("utf-8", "replace").strip()
        detail = f"The server answered {status} {_phrase(status)}"
        detail += f" with a body that is not a problem document: {text[:200]}" if text else " with no body."
        return cls(
            status=status,
            code=f"http_{status}",
            title=_phrase(status),
            detail=detail,
            request_id=request_id,
            retry_after=retry_after,
            headers=headers,
        )


class TransportError(OnairError):
    """No answer came from the server: connection refused or reset, DNS failure, TLS failure or timeout.

    Named so as not to shadow the builtin ``ConnectionError``. A transport failure is never retried by the SDK: the
    request may or may not have reached the server. A create sent with ``idempotency_key`` (every create sends one;
    it is in :attr:`idempotency_key`) can be sent again with the same key safely.

    Attributes:
        method: the HTTP method of the request.
        url: the URL it was sent to.
        idempotency_key: the ``Idempotency-Key`` it carried, if any.
        cause: the underlying exception (also ``__cause__``).
    """

    def __init__(
        self,
        message: str,
        method: str,
        url: str,
        idempotency_key: Optional[str] = None,
        cause: Optional[BaseException] = None,
    ) -> None:
        super().__init__(message)
        self.method = method
        self.url = url
        self.idempotency_key = idempotency_key
        self.cause = cause

    def __reduce__(self) -> Any:
        return (type(self), (str(self), self.method, self.url, self.idempotency_key, None))


class WebhookVerificationError(OnairError):
    """A webhook delivery (or any signed request) failed :func:`onair.webhooks.verify`.

    ``code`` says which check failed, in the order they run: ``missing_header``, ``invalid_timestamp``,
    ``timestamp_out_of_tolerance``, ``signature_mismatch``, ``invalid_body``, ``delivery_mismatch``. Answer such a
    request with 400 or 401 and do not act on its body.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> Any:
        return (type(self), (self.code, str(self)))


def parse_retry_after(value: Optional[str]) -> Optional[int]:
    """``Retry-After`` as whole seconds (the API sends delta-seconds); ``None`` when absent or unreadable.

    An HTTP-date (which a proxy might send) is turned into seconds from now, rounded up.
    """
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return int(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
        return max(0, math.ceil(when.timestamp() - time.time()))
    except (TypeError, ValueError, OverflowError):
        return None


def _problem(body: bytes) -> Optional[Dict[str, Any]]:
    try:
        parsed = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if isinstance(parsed, dict) and isinstance(parsed.get("code"), str):
        return parsed
    return None


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "HTTP error"
