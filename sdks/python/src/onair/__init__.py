"""onair: the official Python SDK for the onair live broadcast graphics API.

>>> import onair
>>> client = onair.Client(api_key="onair_sk_…")  # doctest: +SKIP
>>> client.channels.patch_inputs(channel_id, {"scoreA": 3})  # doctest: +SKIP

- :class:`Client` with resource groups (``client.channels``, ``client.scenes``, ``client.playout``…);
- :class:`ApiError`, :class:`TransportError`, :class:`WebhookVerificationError` (all :class:`OnairError`);
- :mod:`onair.webhooks`: ``verify`` a delivery, ``sign`` a post to an incoming hook;
- :mod:`onair.models`: the API's types as TypedDicts, generated from the OpenAPI document.
"""

import logging

from . import models, webhooks
from ._version import __version__
from .client import Client
from .errors import ApiError, OnairError, TransportError, WebhookVerificationError
from .transport import ApiResponse

# A library logs, and the application decides what is shown: nothing unless it configures logging.
logging.getLogger("onair").addHandler(logging.NullHandler())

__all__ = [
    "Client",
    "ApiError",
    "ApiResponse",
    "OnairError",
    "TransportError",
    "WebhookVerificationError",
    "models",
    "webhooks",
    "__version__",
]
