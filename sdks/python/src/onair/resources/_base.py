"""What every resource group shares: the transport, and path segments that cannot escape their place."""

from __future__ import annotations

import datetime
import urllib.parse
from typing import Any, Dict, Optional, Union

from ..transport import Transport, new_idempotency_key

#: A time: ISO 8601 text as is, or a datetime (a naive one is taken as UTC).
Time = Union[str, datetime.datetime]


class Resource:
    """A group of API calls (``client.channels``, ``client.scenes``…) over one shared :class:`Transport`."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._transport.base_url}>"


def segment(name: str, value: Any) -> str:
    """A path parameter, percent-encoded so that an id with ``/`` or ``?`` cannot reach another route.

    An empty id is refused here: ``/v1/channels/`` plus nothing would silently call another route (the list).
    """
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a non-empty string, not {value!r}")
    return urllib.parse.quote(value, safe="")


def idempotency(key: Optional[str]) -> str:
    """The caller's key, or a fresh one: made once per call, so that the call's retries reuse it."""
    if key is None:
        return new_idempotency_key()
    if not isinstance(key, str) or not key:
        raise ValueError("idempotency_key must be a non-empty string")
    return key


def page_query(limit: Optional[int], cursor: Optional[str]) -> Dict[str, Optional[Union[int, str]]]:
    """The query of a paged list; ``None`` values are left out of the URL."""
    return {"limit": limit, "cursor": cursor}


def iso_time(when: Optional[Time]) -> Optional[str]:
    """A datetime as the API's ISO 8601 UTC form with milliseconds; a naive one is taken as UTC; text as is."""
    if when is None or isinstance(when, str):
        return when
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    utc = when.astimezone(datetime.timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
