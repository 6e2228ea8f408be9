"""pytest fixtures for sms-emulator: each test its own account on its own test clock (see README.md)."""

from .catcher import Catcher, CatcherServer, CaughtRequest
from .client import SmsApiError, SmsClient
from .control import Control, ControlError
from .emulator import Emulator, EmulatorNotReady, start
from .schedule import format_schedule
from .signing import canonical_string, sign
from .world import MessageWait, SmsWorld, WorldClock, find_webhook

__all__ = [
    "Catcher", "CatcherServer", "CaughtRequest", "Control", "ControlError", "Emulator", "EmulatorNotReady",
    "MessageWait", "SmsApiError", "SmsClient", "SmsWorld", "WorldClock", "canonical_string", "format_schedule",
    "find_webhook", "sign", "start",
]
