"""A test's own world: an account on its own test clock (its own secret, start time, balances, environment, scopes),
a signing client, a webhook route that keeps a copy of each delivery (and passes it to the app's own handler when the
test gives one), and what to assert with."""

import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Dict, List, Optional, Pattern, Sequence, Union, overload

from .answers import (
    Account,
    ControlMessage,
    CostExplanation,
    epoch_instant,
    JournalEntry,
    OptOut,
    ReceiverReport,
    Spend,
    TestClock,
    WebhookEvent,
)
from .catcher import AppWebhook, Catcher, CatcherServer, CaughtRequest
from .client import API_PATHS, SmsClient
from .control import Control, ControlError, Scenario
from .cost_checks import assert_fits_segments, assert_stays_gsm7, over_budget
from .emulator import Emulator
from .schedule import Duration, Instant
from .settings import ERROR_PREFIX, WAIT_WITHIN


@dataclass(frozen=True)
class WorldSettings:
    """What a world is made with; each None takes the emulator's default (drawn secrets, the main clock's now, the
    default balances, every scope, no scenario, webhooks answered 200 by the kit). `signing_secret` signs the API
    requests; `webhook_signing_secret` the world's webhooks (Webhook-Signature), which the kit checks.

    `environment` is the API the world's `client` and `base_url` use ("live" or "sandbox"); `app_webhook` is the
    app's own webhook handler (its URL, or a function called with each delivery): the kit keeps a copy of each
    delivery for its assertions and waits, and answers the emulator with the app's answer."""

    signing_secret: Optional[str] = None
    webhook_signing_secret: Optional[str] = None
    start_time: Optional[Instant] = None
    balance: Optional[int] = None
    sandbox_balance: Optional[int] = None
    environment: str = "live"
    scopes: Optional[Sequence[str]] = None
    scenario: Optional[Scenario] = None
    app_webhook: AppWebhook = None


class WorldClock:
    """The test's clock: frozen until moved, and only this test's account lives on it."""

    def __init__(self, control: Control, view: TestClock):
        self._control = control
        self.id: str = view.id
        self._now: int = view.now

    def _moved(self, view: TestClock) -> TestClock:
        self._track(view.now)
        return view

    def _track(self, now: int) -> None:
        self._now = max(self._now, now)

    def advance(self, duration: Duration) -> TestClock:
        """Moves the clock forward ("15m", "1h30m", milliseconds or a timedelta), firing what falls due on the way."""
        return self._moved(self._control.clocks_move(self.id, advance=duration))

    def set(self, instant: Instant) -> TestClock:
        """Moves the clock to an instant (ISO text or an aware datetime); never backwards."""
        return self._moved(self._control.clocks_move(self.id, set=instant))

    def run_until_idle(self, limit: Optional[Duration] = None) -> TestClock:
        """Fires every queued event in time order until none is left, or until `limit` of clock time has passed
        (`run.stopped_at` says "limit" then)."""
        return self._moved(self._control.clocks_move(self.id, run_until_idle=True, limit=limit))

    def next(self) -> TestClock:
        """Moves the clock to its next queued event and fires it."""
        return self._moved(self._control.clocks_move(self.id, next=True))

    def state(self) -> TestClock:
        """The clock as the emulator shows it (pending tasks, incidents, accounts)."""
        return self._moved(self._control.clocks_get(self.id))

    def now(self) -> datetime:
        """The clock's time, at once: nothing but this test moves it, so it is the time its last move answered."""
        return epoch_instant(self._now)


class MessageWait:
    def __init__(self, world: "SmsWorld", message_id: str):
        self._world = world
        self._id = message_id

    def to_reach(self, status: str, within: Optional[Duration] = None) -> Dict[str, Any]:
        """Moves the test's clock to the message's next changes until it has `status` and its webhooks were tried.

        Fails the test with the message's history when it ends otherwise or `within` (the test's own time; default the
        contract's waitWithin, 1h) passes first."""
        within = WAIT_WITHIN if within is None else within
        try:
            answer = self._world.control.messages_wait(self._id, status, within)
        except ControlError as error:
            # The message ended otherwise, or reached the status while the app's handler refused every try of its
            # notification: either way a test failure, naming what happened.
            if error.code in ("CONTROL_WAIT_FAILED", "CONTROL_WEBHOOK_REFUSED"):
                raise AssertionError(f"{ERROR_PREFIX}{error.description}") from None
            raise
        self._world.clock._track(answer.clock.now)
        return answer.message.raw


def _matches(value: Any, expected: Union[str, Pattern[str], None]) -> bool:
    if expected is None:
        return True
    if isinstance(expected, re.Pattern):
        return isinstance(value, str) and expected.search(value) is not None
    return value == expected


def find_webhook(
    payloads: List[Dict[str, Any]],
    id: Optional[str] = None,  # noqa: A002 (the payload's field)
    status: Optional[str] = None,
    type: Optional[str] = None,  # noqa: A002
    recipient: Optional[str] = None,
    text: Union[str, Pattern[str], None] = None,
) -> Optional[Dict[str, Any]]:
    """The first delivery notification or reply payload matching every field given (`text` is the `message` field)."""
    for payload in payloads:
        if (
            _matches(payload.get("id"), id)
            and _matches(payload.get("status"), status)
            and _matches(payload.get("type"), type)
            and (recipient is None or recipient in payload.get("recipient", []))
            and _matches(payload.get("message"), text)
        ):
            return payload
    return None


class SmsWorld:
    """Made by the `sms` fixture for each test; `close()` deletes its clock, which deletes the account and messages."""

    def __init__(
        self,
        emulator: Emulator,
        catchers: CatcherServer,
        name: str = "",
        settings: Optional[WorldSettings] = None,
    ):
        given = settings or WorldSettings()
        if given.environment not in API_PATHS:
            raise ValueError(f"a world's environment is one of {', '.join(API_PATHS)}, not {given.environment!r}")
        self.emulator = emulator
        self.control: Control = emulator.control
        self.settings = given
        self.environment = given.environment
        self.api_key = f"pk_test_{uuid.uuid4().hex}"
        self.catcher: Catcher = catchers.route(f"/webhooks/{self.api_key}", given.app_webhook)
        account: Dict[str, Any] = {
            "api_key": self.api_key,
            "signing_secret": given.signing_secret or f"sk_test_{uuid.uuid4().hex}",
            "webhook_url": self.catcher.url,
            "sandbox_webhook_url": self.catcher.url,
        }
        for name_of, value in (
            ("webhook_signing_secret", given.webhook_signing_secret),
            ("balance", given.balance),
            ("sandbox_balance", given.sandbox_balance),
            ("scopes", None if given.scopes is None else list(given.scopes)),
        ):
            if value is not None:
                account[name_of] = value
        try:
            created = self.control.worlds_create(
                name=name[:200] or None, start_time=given.start_time, account=account, scenario=given.scenario
            )
        except BaseException:
            self.catcher.close()
            raise
        self.account: Account = created.account
        self.signing_secret = created.account.signing_secret
        #: Signs the world's webhooks; the kit's catcher refuses (401) a post not signed with it.
        self.webhook_signing_secret = created.account.webhook_signing_secret
        self.catcher.secret = self.webhook_signing_secret
        self.clock = WorldClock(self.control, created.clock)
        origin = emulator.origin
        #: Where the app under test sends its API requests: it appends /v1/messages as it would to the real API.
        self.base_url = origin if given.environment == "live" else origin + API_PATHS["sandbox"][: -len("/v1")]
        self.client = SmsClient(origin, self.api_key, self.signing_secret, environment=given.environment)

    def client_in(self, environment: str) -> SmsClient:
        """A signing client of this world's account in another environment ("live" or "sandbox")."""
        return SmsClient(self.emulator.origin, self.api_key, self.signing_secret, environment=environment)

    def now(self) -> datetime:
        return self.clock.now()

    @overload
    def wait_for(self, message_id: str) -> MessageWait: ...

    @overload
    def wait_for(self, message_id: str, status: str, within: Optional[Duration] = None) -> Dict[str, Any]: ...

    def wait_for(
        self, message_id: str, status: Optional[str] = None, within: Optional[Duration] = None
    ) -> Union[MessageWait, Dict[str, Any]]:
        """Moves the test's clock until the message has `status` and its webhooks were tried, and answers the message;
        fails the test with its history when it ends otherwise or `within` (default the contract's waitWithin) passes.
        Without a status it answers the older `MessageWait` (`.to_reach(status, within)`), kept for existing suites."""
        waiting = MessageWait(self, message_id)
        return waiting if status is None else waiting.to_reach(status, within)

    def scenario(self, scenario: Scenario) -> Dict[str, Any]:
        """Gives the account its own scenario (rules, replies, faults): a dict, or YAML/JSON text."""
        return self.control.accounts_set_scenario(self.api_key, scenario)

    def use_bundled_scenario(self, name: str) -> Dict[str, Any]:
        """Gives the account a bundled scenario by name ('degraded-api', 'rate-limited', ...)."""
        return self.control.accounts_use_bundled_scenario(self.api_key, name)

    def messages(self, **filters: Any) -> List[Dict[str, Any]]:
        """The account's messages (both environments) with their legs and history, newest first, as the control API
        answers them (`control_messages()` gives them typed); `filters` as `Control.messages_list`'s: `environment`,
        `status`, `recipient`, `client_reference`."""
        return [message.raw for message in self.control_messages(**filters)]

    def control_messages(self, **filters: Any) -> List[ControlMessage]:
        """The account's messages, typed; the same filters as `messages`."""
        return self.control.messages_list(account=self.api_key, limit=1000, **filters).items

    def webhooks(self) -> List[Any]:
        """The payloads the emulator posted to this test's route, in the order they arrived (the kit's copy, also when
        the app's own handler answered them)."""
        return [request.json for request in self.catcher.received]

    def message_by_reference(self, client_reference: str) -> ControlMessage:
        """The world's message sent with this `client_reference` (the newest when several were), typed, found by the
        control API's filter; fails naming the references the world's messages do have."""
        found = self.control.messages_list(account=self.api_key, client_reference=client_reference, limit=1).items
        if found:
            return found[0]
        known = sorted({message.client_reference for message in self.control_messages() if message.client_reference})
        raise AssertionError(
            f"{ERROR_PREFIX}no message of this world has client_reference={client_reference!r}; "
            f"its messages have {', '.join(map(repr, known)) or 'none'}"
        )

    def forged_webhooks(self) -> List[CaughtRequest]:
        """The posts to this world's route that the kit refused, in the order they came: not signed with the world's
        webhook signing secret (answered 401) or larger than the emulator's largest body (413). None is among
        `webhooks()`, nor reached the app's handler; a test can assert none came, or that one was tried. The first 100,
        each without its body; `catcher.refused_count` counts them all."""
        return list(self.catcher.refused)

    def webhook_log(self, message: Optional[str] = None, state: Optional[str] = None) -> List[WebhookEvent]:
        """The emulator's webhook log of this account: every event with every try and the answer it got."""
        return self.control.webhooks_list(account=self.api_key, message=message, state=state, limit=1000).items

    def reply(self, message_id: str, text: str, from_: Optional[str] = None) -> ControlMessage:
        """An inbound reply to a message this world sent (the text first; `from_` defaults to its first recipient);
        answers after its webhook was tried."""
        return self.control.replies_inject(message_id, text, from_)

    def inject_reply(self, message_id: str, text: str, from_: Optional[str] = None) -> ControlMessage:
        """`reply`, by its older name (kept for existing suites)."""
        return self.reply(message_id, text, from_)

    def forward_to(self, app_webhook: AppWebhook) -> None:
        """From now on the world's webhooks go to the app's own handler too: its URL, or a function called with each
        delivery (`wsgi_handler(app, "/path")` for a WSGI app); the emulator gets the app's answers, and the kit still
        keeps its copy of each delivery. For an app built from the world's key and URL, after the world exists."""
        self.catcher.app = app_webhook

    def opt_out(self, number: str, environment: Optional[str] = None) -> OptOut:
        """Opts a number out of this world's account (in the world's environment unless told)."""
        return self.control.opt_outs_add(number, account=self.api_key, environment=environment or self.environment)

    def requests(self, **filters: Any) -> List[JournalEntry]:
        """The API requests this world's account made, newest first (filters as `Control.requests_find`)."""
        return self.control.requests_find(account=self.api_key, limit=1000, **filters).items

    def balance(self, environment: Optional[str] = None) -> int:
        """The account's balance in an environment (the world's unless told)."""
        account = self.control.accounts_get(self.api_key)
        return (account.sandbox if (environment or self.environment) == "sandbox" else account.live).balance

    def assert_sent(
        self,
        to: Optional[str] = None,
        text: Union[str, Pattern[str], None] = None,
        client_reference: Optional[str] = None,
        status: Optional[str] = None,
    ) -> Dict[str, Any]:
        """The account sent a message matching every field given; else fails with what it did send."""
        sent = self.messages()
        for message in sent:
            if (
                (to is None or to in message["recipient"])
                and _matches(message["message"], text)
                and _matches(message["client_reference"], client_reference)
                and _matches(message["status"], status)
            ):
                return message
        shown = "\n".join(f"  {m['status']} to {', '.join(m['recipient'])}: {m['message']!r}" for m in sent) or "  none"
        raise AssertionError(f"no message sent matches to={to!r} text={text!r} status={status!r}; sent:\n{shown}")

    def assert_webhook(
        self,
        id: Optional[str] = None,  # noqa: A002 (the payload's field)
        status: Optional[str] = None,
        type: Optional[str] = None,  # noqa: A002
        recipient: Optional[str] = None,
        text: Union[str, Pattern[str], None] = None,
    ) -> Dict[str, Any]:
        """A payload matching every field given reached the catcher; else fails with what did."""
        payloads = self.webhooks()
        found = find_webhook(payloads, id=id, status=status, type=type, recipient=recipient, text=text)
        if found is not None:
            return found
        shown = "\n".join(f"  {p.get('type')} {p.get('id')} {p.get('status')}" for p in payloads) or "  none"
        raise AssertionError(f"no webhook matches id={id!r} status={status!r} type={type!r}; received:\n{shown}")

    def spend(self) -> Spend:
        """What the world's account spent (both environments): its credits, its messages, the five costliest (`top`,
        each with its one-line `line`) and the whole as a failure shows it (`summary`)."""
        return self.control.accounts_spend(self.api_key)

    def assert_stays_gsm7(self, subject: Any) -> CostExplanation:
        """The text (or a message's text: the API's answer, a `ControlMessage`) stays GSM-7; else fails with the
        emulator's breakdown: each character that forced UCS-2, its position and code point, and what was meant."""
        return assert_stays_gsm7(self.control, subject)

    def assert_fits_segments(self, subject: Any, segments: int) -> CostExplanation:
        """The text (or a message's text) is sent in at most `segments` parts; else fails with the breakdown."""
        return assert_fits_segments(self.control, subject, segments)

    def assert_cost_at_most(self, credits: int) -> Spend:
        """The world's account spent at most `credits` so far; else fails naming the top spenders, each with its
        encoding, segments, recipients and the character that forced UCS-2."""
        spent = self.spend()
        failure = over_budget(spent, credits, f"the world's account {self.api_key}")
        if failure is not None:
            raise AssertionError(failure)
        return spent

    def check_receiver(self, url: str, **options: Any) -> ReceiverReport:
        """Scores a webhook receiver (the app's URL) with realistic deliveries, as `sms-emulator check-receiver` does:
        `check_receiver(url, only=["statuses"], receiver_timeout="2s")`, options as `Control.receiver_check`; its
        posts are signed with the world's webhook signing secret unless `signing_secret` says otherwise."""
        options.setdefault("signing_secret", self.webhook_signing_secret)
        return self.control.receiver_check(url, **options)

    def timeline_html(self) -> str:
        """The account's timeline report: every request, message change, webhook try and reply, with times."""
        return self.control.call("GET", "/report", query={"account": self.api_key})

    def report_html(self) -> str:
        """`timeline_html`, by its older name (kept for existing suites)."""
        return self.timeline_html()

    def close(self) -> None:
        try:
            self.control.clocks_delete(self.clock.id)
        except ControlError as error:
            # The test may have deleted its clock itself, or reset the emulator.
            if error.code != "CONTROL_NOT_FOUND":
                raise
        finally:
            self.catcher.close()
