"""The client: configuration, and one attribute per resource group of the API."""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, cast

from .models import Me
from .resources import (
    AsRun,
    Assets,
    Graphics,
    Channels,
    Events,
    History,
    Hooks,
    IncomingHooks,
    Keys,
    Playout,
    Rundowns,
    Scenes,
    Schedule,
    Sources,
    Templates,
    Webhooks,
)
from .transport import DEFAULT_BASE_URL, NO_BODY, ApiResponse, Query, Transport

__all__ = ["Client"]


class Client:
    """An onair API client.

    >>> import onair
    >>> client = onair.Client(api_key="onair_sk_…", base_url="http://localhost:8080")  # doctest: +SKIP
    >>> client.channels.patch_inputs("ch_…", {"scoreA": 3})  # doctest: +SKIP

    Args:
        api_key: an API key (``onair_sk_…``); defaults to the ``ONAIR_API_KEY`` environment variable. Posting to an
            incoming hook (``client.hooks.post``) needs none.
        base_url: the server, with or without a trailing ``/`` or ``/v1``.
        timeout: seconds to wait for the server on each attempt (connect, and each read).
        max_retries: how many times a call answered 429 (or 503 with ``Retry-After``) is sent again.
        max_retry_wait: the longest ``Retry-After`` (seconds) worth waiting; a longer one raises at once.

    Resource groups: :attr:`channels`, :attr:`scenes`, :attr:`playout`, :attr:`rundowns`, :attr:`schedule`,
    :attr:`history`, :attr:`templates`, :attr:`events`, :attr:`as_run`, :attr:`keys`, :attr:`webhooks`,
    :attr:`incoming_hooks`, :attr:`sources`, :attr:`hooks`, :attr:`assets`, :attr:`graphics`; and :meth:`me`. Calls return the answer's JSON as plain dicts (typed with
    :mod:`onair.models`) and raise :class:`onair.ApiError` or :class:`onair.TransportError`. A client holds no
    connection and may be shared by threads.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 10.0,
        max_retries: int = 3,
        max_retry_wait: float = 30.0,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("ONAIR_API_KEY") or None
        self._transport = Transport(
            base_url=base_url,
            api_key=key,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
        )
        self.channels = Channels(self._transport)
        self.scenes = Scenes(self._transport)
        self.playout = Playout(self._transport)
        self.rundowns = Rundowns(self._transport)
        self.schedule = Schedule(self._transport)
        self.history = History(self._transport)
        self.templates = Templates(self._transport)
        self.events = Events(self._transport)
        self.as_run = AsRun(self._transport)
        self.keys = Keys(self._transport)
        self.webhooks = Webhooks(self._transport)
        self.incoming_hooks = IncomingHooks(self._transport)
        self.sources = Sources(self._transport)
        self.hooks = Hooks(self._transport)
        self.assets = Assets(self._transport)
        self.graphics = Graphics(self._transport)

    @property
    def base_url(self) -> str:
        """The server's URL as used: no trailing slash, no ``/v1``."""
        return self._transport.base_url

    def me(self) -> Me:
        """The caller: its key (or user), workspace, permissions and channel lock."""
        return cast(Me, self._transport.request("GET", "/v1/me").data)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        json: Any = NO_BODY,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
    ) -> ApiResponse:
        """Call any route, with the client's key, headers, errors and retries; answer status, headers and data.

        For what the resource methods do not show: the answer's headers (``X-Request-Id``, ``Idempotent-Replayed``,
        ``RateLimit-Remaining``) or a route newer than this SDK. ``path`` starts with ``/v1/``.
        """
        if not path.startswith("/"):
            raise ValueError(f"path must start with /v1/, not {path!r}")
        return self._transport.request(
            method.upper(), path, query=query, json_body=json, headers=headers, idempotency_key=idempotency_key
        )

    def __repr__(self) -> str:
        return f"onair.Client(base_url={self.base_url!r})"
