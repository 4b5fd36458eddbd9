"""``client.schedule``: operations at a wall-clock time (docs/rundowns.md, "Take at a time")."""

from __future__ import annotations

from typing import Optional, Union, cast

from ..models import ScheduledOp, ScheduleInOpVariant1, ScheduleInOpVariant2, ScheduleInOpVariant3, ScheduleList
from ._base import Resource, Time, idempotency, iso_time, segment

#: What to do at the time: ``{"kind": "take", "layer"?}``, ``{"kind": "clear", "layer"?, "sceneId"?}``, or
#: ``{"kind": "cue" | "program"}`` with ``sceneId`` (and ``values``) or ``rundownId`` and ``itemId``.
ScheduledAction = Union[ScheduleInOpVariant1, ScheduleInOpVariant2, ScheduleInOpVariant3]


class Schedule(Resource):
    """A channel's schedule: the server applies each operation in the frame that holds its time, whoever is
    connected, and keeps it across a restart."""

    def create(
        self, channel_id: str, at: Time, op: ScheduledAction, *, idempotency_key: Optional[str] = None
    ) -> ScheduledOp:
        """Schedule ``op`` at ``at`` (ISO 8601 with a zone, or a datetime; a naive one is UTC).

        A time in the past raises ``ApiError`` ``invalid_request``. Sends an ``Idempotency-Key``.
        """
        path = f"/v1/channels/{segment('channel_id', channel_id)}/schedule"
        body = {"at": iso_time(at), "op": op}
        answer = self._transport.request("POST", path, json_body=body, idempotency_key=idempotency(idempotency_key))
        return cast(ScheduledOp, answer.data)

    def list(self, channel_id: str) -> ScheduleList:
        """What is scheduled, soonest first: ``{"data": [...]}``."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/schedule"
        return cast(ScheduleList, self._transport.request("GET", path).data)

    def cancel(self, channel_id: str, schedule_id: str) -> None:
        """Cancel a scheduled operation (``not_found`` once it has run or been cancelled)."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/schedule/{segment('schedule_id', schedule_id)}"
        self._transport.request("DELETE", path)
