"""What the control operations answer, as dataclasses (their JSON Schemas are in the emulator's OpenAPI document,
/_emulator/openapi.json, components/schemas): field names in snake_case, read from the answer's camelCase."""

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Dict, Generic, List, Optional, Type, TypeVar, Union, get_args, get_origin, get_type_hints

from .schedule import format_schedule, parse_instant

T = TypeVar("T")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def decode(kind: Any, value: Any) -> Any:
    """A JSON value as `kind`: a dataclass of this module (by its fields), a list or Optional of one, or as it is."""
    if value is None:
        return None
    origin = get_origin(kind)
    if origin is Union:
        inner = [arg for arg in get_args(kind) if arg is not type(None)]
        return decode(inner[0], value) if len(inner) == 1 else value
    if origin in (list, List):
        (item,) = get_args(kind) or (Any,)
        return [decode(item, entry) for entry in value]
    if isinstance(kind, type) and dataclasses.is_dataclass(kind) and isinstance(value, dict):
        return from_json(kind, value)
    return value


def from_json(kind: Type[T], data: Dict[str, Any]) -> T:
    """Builds the dataclass `kind` from an answer: each field from its camelCase name (or its own, or the name in its
    metadata "json"); a field the answer leaves out takes its default."""
    hints = get_type_hints(kind)
    given: Dict[str, Any] = {}
    for item in dataclasses.fields(kind):  # type: ignore[arg-type]
        if not item.init:
            continue
        names = [item.metadata.get("json"), _camel(item.name), item.name]
        for name in names:
            if name is not None and name in data:
                given[item.name] = decode(hints[item.name], data[name])
                break
    built = kind(**given)
    if hasattr(built, "raw"):
        object.__setattr__(built, "raw", data)
    return built


def epoch_instant(milliseconds: int) -> datetime:
    return datetime.fromtimestamp(milliseconds / 1000, tz=timezone.utc)


@dataclass(frozen=True)
class Status:
    """`{"status": "ok"}`, `"settled"`, `"reset"`, `"restored"`."""

    status: str


@dataclass(frozen=True)
class Incident:
    """A clock task that failed or was skipped."""

    time: str
    task: str
    outcome: str
    reason: str


@dataclass(frozen=True)
class ClockRun:
    """What `run_until_idle` or `next` did: events fired, whether the queue is empty, and why it stopped early."""

    fired: int
    idle: bool
    stopped_at: Optional[str] = None


@dataclass(frozen=True)
class Clock:
    """The main clock: `now` in epoch milliseconds, `time` the same instant as ISO text at the API's offset."""

    now: int
    time: str
    mode: str
    speed: float
    pending_tasks: int
    incidents: List[Incident] = field(default_factory=list)
    run: Optional[ClockRun] = None

    @property
    def instant(self) -> datetime:
        """`now` as an aware datetime (UTC)."""
        return epoch_instant(self.now)


@dataclass(frozen=True)
class TestClock:
    """A test clock: the main clock's fields, its id and name, and the API keys of the accounts on it."""

    __test__ = False  # not a pytest test class

    id: str
    now: int
    time: str
    mode: str
    speed: float
    pending_tasks: int
    name: Optional[str] = None
    incidents: List[Incident] = field(default_factory=list)
    accounts: List[str] = field(default_factory=list)
    run: Optional[ClockRun] = None

    @property
    def instant(self) -> datetime:
        """`now` as an aware datetime (UTC)."""
        return epoch_instant(self.now)


@dataclass(frozen=True)
class Wallet:
    """An account's side in one environment: balance, webhook URL, opted-out numbers, message count."""

    balance: int
    webhook_url: Optional[str]
    opt_outs: List[str]
    messages: int


@dataclass(frozen=True)
class Account:
    """An account: key, signing secret, scopes, a wallet per environment and the test clock it lives on."""

    api_key: str
    signing_secret: str
    scopes: List[str]
    live: Wallet
    sandbox: Wallet
    clock: Optional[str] = None


@dataclass(frozen=True)
class World:
    """What `worlds_create` answers: the world's test clock and its account."""

    clock: TestClock
    account: Account


@dataclass(frozen=True)
class Change:
    """A status and when (ISO text) it was or will be reached."""

    status: str
    at: str


@dataclass(frozen=True)
class Leg:
    """A message's delivery to one recipient: its status, history and upcoming changes."""

    recipient: str
    status: str
    history: List[Change] = field(default_factory=list)
    upcoming: List[Change] = field(default_factory=list)


@dataclass(frozen=True)
class ControlMessage:
    """A message as the control API shows it, with its legs and history.

    `schedule` is given as `format_schedule` writes it (minutes and the offset: "2026-11-27T10:00+02:00"), so it
    compares with `format_schedule(instant)`; the API's own text (with seconds) is `raw["schedule"]`.
    """

    id: str
    type: str
    environment: str
    account: str
    recipient: List[str]
    message: str
    segments: int
    encoding: str
    status: str
    credit: int
    creation_date: str
    ucs2_trigger: Optional[str] = None
    client_reference: Optional[str] = None
    schedule: Optional[str] = None
    delivery_date: Optional[str] = None
    deleted_at: Optional[str] = None
    in_reply_to: Optional[str] = None
    history: List[Change] = field(default_factory=list)
    legs: List[Leg] = field(default_factory=list)
    raw: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.schedule is not None:
            object.__setattr__(self, "schedule", format_schedule(self.schedule))

    @property
    def scheduled_at(self) -> Optional[datetime]:
        """The schedule as an aware datetime, or None."""
        return None if self.schedule is None else parse_instant(self.schedule)


@dataclass(frozen=True)
class WaitClock:
    """The message's clock when a wait ended: its id (None for the main clock), `now` and `time`."""

    id: Optional[str]
    now: int
    time: str

    @property
    def instant(self) -> datetime:
        """`now` as an aware datetime (UTC)."""
        return epoch_instant(self.now)


@dataclass(frozen=True)
class Wait:
    """What `messages_wait` answers: the message once it reached the status, and its clock then."""

    message: ControlMessage
    clock: WaitClock


@dataclass(frozen=True)
class Attempt:
    """One try of a webhook event: number, time, URL, status or error, duration, whether it counted as received."""

    number: int
    at: str
    url: str
    duration_ms: float
    ok: bool
    status: Optional[int] = None
    error: Optional[str] = None


@dataclass(frozen=True)
class WebhookEvent:
    """An event of the webhook log: what was posted (`payload`), where, and every try."""

    id: str
    kind: str
    environment: str
    account: str
    message_id: str
    recipient: str
    status: str
    created_at: str
    state: str
    url: Optional[str] = None
    payload: Any = None
    attempts: List[Attempt] = field(default_factory=list)
    behaviours: List[str] = field(default_factory=list)


@dataclass(frozen=True)
class Chaos:
    """The delivery-behaviour rates in force (emulator-wide duplicate, late and reorder with a probability): rates from 0 to 1, `delay` in milliseconds."""

    duplicate_rate: float
    delay_rate: float
    reorder_rate: float
    delay: float


@dataclass(frozen=True)
class OptOut:
    """A number opted out of (or back into) an account in an environment."""

    account: str
    environment: str
    number: str
    opted_out: bool


@dataclass(frozen=True)
class JournalEntry:
    """One API request of the request journal, accepted or rejected."""

    id: str
    wall_time: str
    time: str
    method: str
    path: str
    query: str
    environment: str
    status: int
    duration_ms: float
    account: Optional[str] = None
    network: Optional[str] = None
    code: Optional[str] = None
    message_id: Optional[str] = None
    request_body: Any = None
    response_body: Any = None


@dataclass(frozen=True)
class Signature:
    """What `sign` answers: the canonical string and its signature."""

    string_to_sign: str = field(metadata={"json": "string_to_sign"})
    signature: str = ""


@dataclass(frozen=True)
class BundledScenario:
    name: str
    description: str


@dataclass(frozen=True)
class BundledScenarios:
    """The scenarios shipped with the emulator."""

    scenarios: List[BundledScenario]


@dataclass(frozen=True)
class Limits:
    """The limits applied: most recipients per request (and why), longest text in characters, largest body in bytes."""

    batch_limit: int
    batch_limit_note: str
    message_limit: int
    max_body_size: int


@dataclass(frozen=True)
class ReceiverAnswer:
    """What the receiver answered one post of a check: its status, or the error, and how long it took."""

    about: str
    ms: int
    status: Optional[int] = None
    error: Optional[str] = None
    cut_after_bytes: Optional[int] = None


@dataclass(frozen=True)
class ReceiverCheck:
    """One check of `receiver_check`: what it sent, whether the receiver passed, why, what a gateway does next, and
    (with a state hook) what the hook answered after its sequences."""

    name: str
    sends: str
    passed: bool
    reason: str
    gateway_next: str
    answers: List[ReceiverAnswer] = field(default_factory=list)
    state: List[Any] = field(default_factory=list)


@dataclass(frozen=True)
class ReceiverReport:
    """What `receiver_check` answers (as `sms-emulator check-receiver --json` prints it): every check, the verdict,
    and what the run could not see without a state hook."""

    url: str
    passed: bool
    timeout_ms: int
    checks: List[ReceiverCheck] = field(default_factory=list)
    unseen: List[str] = field(default_factory=list)
    state: Optional[str] = None
    unreachable: Optional[str] = None


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a control list: `items`, `total` matches, `page` (from 1) and `limit`."""

    items: List[T]
    total: int
    page: int
    limit: int


def page_of(kind: Any, data: Dict[str, Any]) -> "Page[Any]":
    return Page([decode(kind, item) for item in data["items"]], data["total"], data["page"], data["limit"])
