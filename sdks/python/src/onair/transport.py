"""HTTP transport: one place that sends a request, reads the answer, and waits out rate limits.

Everything the resource classes send goes through :meth:`Transport.request`, so the headers every call carries
(``Authorization``, ``User-Agent``, ``Accept``, ``Content-Type``, ``Idempotency-Key``), the error mapping and the
retry rule are written once:

- a 429, or a 503 that carries ``Retry-After``, is retried after ``Retry-After`` seconds (at least 1), at most
  ``max_retries`` times; when that wait would exceed ``max_retry_wait`` the error is raised at once, without
  sleeping, so a caller with a deadline is never blocked for minutes;
- nothing else is retried: a timeout or a dropped connection may have reached the server, and only the caller knows
  whether acting twice is harmless (creates carry an ``Idempotency-Key``, reused on every retry, so sending the same
  call again with that key is);
- redirects are not followed, so the API key is never sent to another host.

It uses ``urllib.request`` from the standard library (proxies from the environment apply, as for any urllib call)
and opens a connection per request; a :class:`Transport` holds no per-request state and may be shared by threads.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from ._version import __version__
from .errors import ApiError, Headers, TransportError
from .webhooks import sign

__all__ = ["Transport", "ApiResponse", "normalize_base_url", "new_idempotency_key", "DEFAULT_BASE_URL"]

logger = logging.getLogger("onair")

DEFAULT_BASE_URL = "http://localhost:8080"
USER_AGENT = f"onair-python/{__version__}"

Query = Mapping[str, Union[str, int, float, bool, None]]


class _NoBody:
    """Marks "no JSON body" apart from a JSON ``null``."""

    def __repr__(self) -> str:
        return "NO_BODY"


NO_BODY: Any = _NoBody()


class ApiResponse:
    """One answer of the API: ``status``, ``headers`` (case-insensitive ``get``) and the parsed JSON ``data``.

    The resource methods return ``data`` alone; :meth:`onair.Client.request` returns this, for the headers
    (``X-Request-Id``, ``Idempotent-Replayed``, ``RateLimit-*``).
    """

    def __init__(self, status: int, headers: Headers, data: Any) -> None:
        self.status = status
        self.headers = headers
        self.data = data

    @property
    def request_id(self) -> Optional[str]:
        """The answer's ``X-Request-Id``: the key to the server's log line for this request."""
        return self.headers.get("X-Request-Id")

    @property
    def replayed(self) -> bool:
        """True when the server answered from its idempotency record (``Idempotent-Replayed: true``)."""
        return (self.headers.get("Idempotent-Replayed") or "").lower() == "true"

    def __repr__(self) -> str:
        return f"ApiResponse(status={self.status}, request_id={self.request_id!r})"


def normalize_base_url(base_url: str) -> str:
    """``http://host:8080``, ``http://host:8080/`` and ``http://host:8080/v1/`` all mean the same server.

    Returns the URL without a trailing slash and without ``/v1`` (the transport adds ``/v1/...`` to every path).
    """
    if not isinstance(base_url, str) or not base_url.strip():
        raise ValueError("base_url must be the server's URL, such as http://localhost:8080")
    url = base_url.strip().rstrip("/")
    if url.endswith("/v1"):
        url = url[: -len("/v1")].rstrip("/")
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"base_url must be an http:// or https:// URL with a host, not {base_url!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"base_url must not have a query or a fragment: {base_url!r}")
    return url


def new_idempotency_key() -> str:
    """A fresh ``Idempotency-Key``: a random UUID, made once per call and reused by that call's retries."""
    return str(uuid.uuid4())


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Turn a 3xx into an answer instead of following it: a redirect must not carry the API key elsewhere."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


class Transport:
    """Sends requests to one onair server with one API key; see the module docstring for the rules."""

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        api_key: Optional[str] = None,
        timeout: float = 10.0,
        max_retries: int = 3,
        max_retry_wait: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if timeout is None or timeout <= 0:
            raise ValueError("timeout must be a positive number of seconds")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if max_retry_wait < 0:
            raise ValueError("max_retry_wait must be 0 or more seconds")
        self.base_url = normalize_base_url(base_url)
        self.api_key = api_key
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.max_retry_wait = float(max_retry_wait)
        self._sleep = sleep
        self._opener = urllib.request.build_opener(_NoRedirect())

    # -- the one entry point ------------------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        json_body: Any = NO_BODY,
        content: Optional[bytes] = None,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
        url: Optional[str] = None,
        authenticate: bool = True,
        sign_with: Optional[str] = None,
        text: bool = False,
    ) -> ApiResponse:
        """Send one API call, waiting out rate limits as the module docstring says; return the answer.

        Args:
            method: ``GET``, ``POST``, ``PUT``, ``PATCH`` or ``DELETE``.
            path: the path from the server's root, starting with ``/v1/`` (ignored when ``url`` is given).
            query: query parameters; ``None`` values are left out, booleans sent as ``1``/``0``.
            json_body: a value to send as JSON (``Content-Type: application/json``).
            content: raw bytes to send as the JSON body instead (for a body that must go out byte for byte).
            headers: extra headers.
            idempotency_key: sent as ``Idempotency-Key`` on every attempt.
            url: an absolute URL to call instead of ``base_url + path`` (an incoming hook's URL).
            authenticate: send the API key (``False`` for incoming-hook posts: their URL is the credential).
            sign_with: a secret to sign each attempt's body with (``X-Service-Timestamp``/``X-Service-Signature``).
            text: the answer is text (CSV): ``data`` is the body as a string, not parsed JSON.

        Raises:
            ApiError: the server answered 4xx or 5xx (after the retries the rule allows).
            TransportError: no answer (connection, TLS, timeout).
        """
        target = (url or self.base_url + path) + _query_string(query, url or path)
        body = content
        if body is None and json_body is not NO_BODY:
            body = json.dumps(json_body, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
        retries = 0
        while True:
            sent = self._headers(body, headers, idempotency_key, authenticate, sign_with)
            status, answer_headers, raw = self._send(method, target, body, sent, idempotency_key)
            if 200 <= status < 300:
                data = raw.decode("utf-8") if text else _parse_success(status, answer_headers, raw)
                return ApiResponse(status, answer_headers, data)
            error = ApiError.from_response(status, answer_headers, raw)
            wait = _retry_wait(error)
            if wait is None or retries >= self.max_retries or wait > self.max_retry_wait:
                raise error
            retries += 1
            logger.info(
                "onair: %s %s answered %d %s; retrying in %d s (retry %d of %d)",
                method,
                target,
                status,
                error.code,
                wait,
                retries,
                self.max_retries,
            )
            self._sleep(wait)

    # -- pieces -------------------------------------------------------------------------------------------------

    def _headers(
        self,
        body: Optional[bytes],
        extra: Optional[Mapping[str, str]],
        idempotency_key: Optional[str],
        authenticate: bool,
        sign_with: Optional[str],
    ) -> Dict[str, str]:
        sent = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if authenticate and self.api_key:
            sent["Authorization"] = f"Bearer {self.api_key}"
        if body is not None:
            sent["Content-Type"] = "application/json"
        if idempotency_key is not None:
            sent["Idempotency-Key"] = idempotency_key
        if sign_with is not None:
            # Signed per attempt: a retry after a long Retry-After still carries a fresh timestamp.
            sent.update(sign(body or b"", sign_with))
        if extra:
            sent.update(extra)
        return sent

    def _send(
        self,
        method: str,
        target: str,
        body: Optional[bytes],
        headers: Dict[str, str],
        idempotency_key: Optional[str],
    ) -> Tuple[int, Headers, bytes]:
        request = urllib.request.Request(target, data=body, headers=headers, method=method)
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            try:
                raw = error.read()
            except (OSError, http.client.HTTPException):
                raw = b""
            finally:
                error.close()
            return error.code, error.headers, raw
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, socket.timeout) or isinstance(error, socket.timeout):
                message = f"{method} {target} timed out after {self.timeout:g} s"
            else:
                message = f"{method} {target} failed: {reason}"
            raise TransportError(message, method, target, idempotency_key, error) from error


def _query_string(query: Optional[Query], base: str) -> str:
    if not query:
        return ""
    pairs: List[Tuple[str, str]] = []
    for name, value in query.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "1" if value else "0"
        pairs.append((name, str(value)))
    if not pairs:
        return ""
    return ("&" if "?" in base else "?") + urllib.parse.urlencode(pairs)


def _parse_success(status: int, headers: Headers, raw: bytes) -> Any:
    if status == 204 or not raw.strip():
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ApiError(
            status=status,
            code="invalid_response",
            title="Invalid response",
            detail=f"The server answered {status} with a body that is not JSON: "
            f"{raw[:200].decode('utf-8', 'replace')}",
            request_id=headers.get("X-Request-Id"),
            headers=headers,
        ) from None


def _retry_wait(error: ApiError) -> Optional[int]:
    """Seconds to wait before retrying, or ``None`` when this answer is not retried."""
    if error.status == 429:
        return max(1, error.retry_after if error.retry_after is not None else 1)
    if error.status == 503 and error.retry_after is not None:
        return max(1, error.retry_after)
    return None
