"""``client.templates``: the built-in scene templates (scoreboard, lower-third, sponsor-bug and the others)."""

from __future__ import annotations

from typing import Iterator, cast

from ..models import Template, TemplateList
from ..pagination import paginate
from ._base import Resource


class Templates(Resource):
    """Templates: each has the ``definition`` a scene made from it gets (docs/scenes.md, "Templates")."""

    def list(self) -> TemplateList:
        return cast(TemplateList, self._transport.request("GET", "/v1/templates").data)

    def iterate(self) -> Iterator[Template]:
        return paginate(lambda _cursor: self.list())
