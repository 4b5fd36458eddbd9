"""``client.channels``: channels, their output token, their inputs and their live state."""

from __future__ import annotations

from typing import Iterator, Optional, cast

from ..models import Channel, ChannelIn, ChannelList, ChannelUpdate, InputsPatch, InputsResult, OutputList, State
from ..pagination import paginate
from ._base import Resource, idempotency, page_query, segment


class Channels(Resource):
    """Channels: one graphics output each (docs/api.md, "Channels" and "Inputs and state")."""

    def create(self, channel: ChannelIn, *, idempotency_key: Optional[str] = None) -> Channel:
        """Create a channel: ``{"name": ..., "fps"?, "width"?, "height"?}``. Sends an ``Idempotency-Key``."""
        return cast(
            Channel,
            self._transport.request(
                "POST", "/v1/channels", json_body=channel, idempotency_key=idempotency(idempotency_key)
            ).data,
        )

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> ChannelList:
        """One page of channels, oldest first: ``{"data": [...], "nextCursor": ...}``."""
        return cast(ChannelList, self._transport.request("GET", "/v1/channels", query=page_query(limit, cursor)).data)

    def iterate(self, *, limit: Optional[int] = None) -> Iterator[Channel]:
        """Every channel, following ``nextCursor`` page by page (``limit`` is the page size)."""
        return paginate(lambda cursor: self.list(limit=limit, cursor=cursor))

    def get(self, channel_id: str) -> Channel:
        return cast(Channel, self._transport.request("GET", f"/v1/channels/{segment('channel_id', channel_id)}").data)

    def update(self, channel_id: str, changes: ChannelUpdate) -> Channel:
        """Rename a channel or change its frame rate: ``{"name"?, "fps"?}``."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}"
        return cast(Channel, self._transport.request("PATCH", path, json_body=changes).data)

    def delete(self, channel_id: str) -> None:
        """Delete a channel with its scenes and state."""
        self._transport.request("DELETE", f"/v1/channels/{segment('channel_id', channel_id)}")

    def rotate_output_token(self, channel_id: str, *, idempotency_key: Optional[str] = None) -> Channel:
        """Give the channel a new output token (renderers with the old one are disconnected)."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/output-token"
        return cast(Channel, self._transport.request("POST", path, idempotency_key=idempotency(idempotency_key)).data)

    def patch_inputs(self, channel_id: str, inputs: InputsPatch) -> InputsResult:
        """Set input values, all or nothing, at the channel's next frame: ``{"scoreA": 3, "home": "LEEDS"}``.

        ``None`` sets an input back to its scene default. Counts against the channel's 30 updates per second; a 429
        is waited out (see the client's ``max_retries`` and ``max_retry_wait``).
        """
        path = f"/v1/channels/{segment('channel_id', channel_id)}/inputs"
        return cast(InputsResult, self._transport.request("PATCH", path, json_body=inputs).data)

    def get_state(self, channel_id: str) -> State:
        """What is on program and preview, every input's value and every clock."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/state"
        return cast(State, self._transport.request("GET", path).data)

    def list_outputs(self, channel_id: str) -> OutputList:
        """The output pages connected to the server answering: what each painted, its lag, load errors and health
        (docs/outputs.md), and ``refused``: pages refused for their token."""
        path = f"/v1/channels/{segment('channel_id', channel_id)}/outputs"
        return cast(OutputList, self._transport.request("GET", path).data)
