"""pytest-sms-emulator: each test its own world on the SMS emulator (an account on its own test clock, a signing client,
a webhook catcher that can pass deliveries to the app's own handler), with the emulator and a Node runtime carried."""

from .answers import (
    Account,
    Attempt,
    BundledScenario,
    BundledScenarios,
    Change,
    Chaos,
    Clock,
    ClockRun,
    ControlMessage,
    CostExplanation,
    Incident,
    JournalEntry,
    Leg,
    Limits,
    OptOut,
    Page,
    ReceiverAnswer,
    ReceiverCheck,
    ReceiverReport,
    Signature,
    Spend,
    Status,
    TestClock,
    Wait,
    WaitClock,
    Wallet,
    WebhookEvent,
    World,
)
from .catcher import AppWebhook, Catcher, CatcherServer, CaughtRequest, Handler, wsgi_handler
from .client import SmsApiError, SmsClient
from .control import Control, ControlError
from .emulator import Emulator, EmulatorNotFound, EmulatorNotReady, Resolution, resolve, start
from .schedule import Duration, Instant, format_schedule, parse_instant
from .signing import canonical_string, sign
from .vectors import read_vectors, vector_file
from .world import MessageWait, SmsWorld, WorldClock, WorldSettings, find_webhook

#: The kit's version: the emulator's (package.json), one number for npm and every kit.
__version__ = "0.1.0"

__all__ = [
    "Account", "AppWebhook", "Attempt", "BundledScenario", "BundledScenarios", "Catcher", "CatcherServer",
    "CaughtRequest", "Change", "Chaos", "Clock", "ClockRun", "Control", "ControlError", "ControlMessage", "CostExplanation", "Duration",
    "Emulator", "EmulatorNotFound", "EmulatorNotReady", "Handler", "Incident", "Instant", "JournalEntry", "Leg", "Limits",
    "MessageWait", "OptOut", "Page", "ReceiverAnswer", "ReceiverCheck", "ReceiverReport", "Resolution", "Signature", "SmsApiError", "SmsClient", "SmsWorld", "Spend", "Status",
    "TestClock", "Wait", "WaitClock", "Wallet", "WebhookEvent", "World", "WorldClock", "WorldSettings",
    "canonical_string", "find_webhook", "format_schedule", "parse_instant", "read_vectors", "resolve", "sign", "start",
    "vector_file", "wsgi_handler",
]  # fmt: skip
