"""The API's resource groups, one module each; :class:`onair.Client` holds one instance of each."""

from .as_run import AsRun
from .assets import Assets
from .graphics import Graphics
from .channels import Channels
from .events import Events
from .history import History
from .hooks import Hooks
from .incoming_hooks import IncomingHooks
from .keys import Keys
from .playout import Playout
from .rundowns import Rundowns
from .schedule import Schedule
from .scenes import Scenes
from .sources import Sources
from .templates import Templates, TemplateList
from .webhooks import Webhooks

__all__ = [
    "AsRun",
    "Assets",
    "Channels",
    "Events",
    "Graphics",
    "History",
    "Hooks",
    "IncomingHooks",
    "Keys",
    "Playout",
    "Rundowns",
    "Schedule",
    "Scenes",
    "Sources",
    "Templates",
    "TemplateList",
    "Webhooks",
]
