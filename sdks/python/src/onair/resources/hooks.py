"""``client.hooks``: post to an incoming hook's URL, as a scorekeeping system would, signed when it must be."""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Union, cast

from ..models import IncomingHookAnswer
from ._base import Resource, segment


class Hooks(Resource):
    """Posts to ``/v1/hooks/{token}``: the URL's token is the credential, so no API key is sent."""

    def post(
        self,
        hook_url_or_token: str,
        body: Union[Mapping[str, Any], bytes, str],
        secret: Optional[str] = None,
        *,
        dry_run: bool = False,
    ) -> IncomingHookAnswer:
        """Post fields to an incoming hook; they set the channel's mapped inputs on its next frame.

        Args:
            hook_url_or_token: the hook's ``url`` as created (``http://…/v1/hooks/<token>``), or the token alone (then
                it is posted to this client's server).
            body: a dict (sent as compact JSON) or the exact JSON bytes/text to send.
            secret: the hook's ``secret`` when it was created with ``requireSignature``: each attempt is then signed
                (``X-Service-Timestamp`` and ``X-Service-Signature`` over the exact bytes sent).
            dry_run: answer what would be applied, and apply nothing.

        Returns ``{"frame", "applied", "ignored"}``. Raises ``ApiError`` (401 ``bad_signature`` for a missing or
        wrong signature, 400 for a value that does not fit its input, 404 for an unknown token, 429 past the
        channel's 30 updates per second once the retries are spent).
        """
        if isinstance(body, (bytes, bytearray)):
            content = bytes(body)
        elif isinstance(body, str):
            content = body.encode("utf-8")
        else:
            content = json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
        if not isinstance(hook_url_or_token, str) or not hook_url_or_token:
            raise ValueError("hook_url_or_token must be the hook's URL or its token")
        if hook_url_or_token.startswith(("http://", "https://")):
            url: Optional[str] = hook_url_or_token
            path = ""
        else:
            url = None
            path = f"/v1/hooks/{segment('token', hook_url_or_token)}"
        answer = self._transport.request(
            "POST",
            path,
            url=url,
            query={"dryRun": True} if dry_run else None,
            content=content,
            authenticate=False,
            sign_with=secret,
        )
        return cast(IncomingHookAnswer, answer.data)
