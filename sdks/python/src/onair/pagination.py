"""Following ``nextCursor`` through the pages of a list.

The API's lists answer one page, ``{"data": [...], "nextCursor": "..." | null}``; the next page is asked for with
``cursor=<nextCursor>``. The list methods return that page as it is (the caller may store the cursor and resume
later); the ``iterate``/``iter_*`` methods use :func:`paginate` to yield every item of every page, asking for the
next page only when the previous one is used up.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Optional

from .errors import OnairError

__all__ = ["paginate"]


def paginate(fetch: Callable[[Optional[str]], Mapping[str, Any]]) -> Iterator[Any]:
    """Yield the items of every page: ``fetch(None)`` gives the first page, ``fetch(cursor)`` the next ones.

    Stops when ``nextCursor`` is ``null``. A page may be empty while ``nextCursor`` is set (the event log's filtered
    pages are): that is followed like any other. A cursor that does not move would loop for ever, and raises.
    """
    cursor: Optional[str] = None
    while True:
        page = fetch(cursor)
        for item in page.get("data") or []:
            yield item
        following = page.get("nextCursor")
        if not following:
            return
        if following == cursor:
            raise OnairError(f"The server answered the same nextCursor twice ({following}); stopping the iteration.")
        cursor = following
