"""The emulator's control API (/_emulator), one typed method per operation of its OpenAPI document, named as
test-vectors/kit-contract.json names them for Python; the kit's only door into the emulator."""

import json
import urllib.parse
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .answers import (
    Account,
    BundledScenarios,
    Chaos,
    Clock,
    ControlMessage,
    JournalEntry,
    Limits,
    OptOut,
    Page,
    ReceiverReport,
    Signature,
    Status,
    TestClock,
    Wait,
    WebhookEvent,
    World,
    from_json,
    page_of,
)
from .http import Connections, NoAnswer, connections
from .schedule import Duration, Instant, duration_value, instant_value

#: The control API's path prefix (the contract's `paths.control`).
CONTROL_PATH = "/_emulator"

Scenario = Union[str, Mapping[str, Any]]


class ControlError(Exception):
    """An error answer of the control API: its catalogued code, HTTP status and description."""

    def __init__(self, code: str, status: int, description: str):
        super().__init__(f"{code} ({status}): {description}")
        self.code = code
        self.status = status
        self.description = description


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _fields(**given: Any) -> Dict[str, Any]:
    """Keyword arguments as a JSON body or query: camelCase names, the ones left as None dropped."""
    return {_camel(name): value for name, value in given.items() if value is not None}


def _camel_keys(mapping: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    return None if mapping is None else {_camel(name): value for name, value in mapping.items()}


class Control:
    """Calls `<origin>/_emulator<path>`; an error answer raises ControlError, no answer raises ControlError NO_ANSWER.

    Each operation of the control API is a method; `call(method, path, ...)` reaches one raw. Durations take "15m",
    milliseconds or a `timedelta`; instants ISO text or an aware `datetime`. Lists answer a `Page` (`items`, `total`,
    `page`, `limit`)."""

    def __init__(
        self,
        origin: str,
        token: Optional[str] = None,
        timeout: float = 60.0,
    ):
        self.origin = origin.rstrip("/")
        self._token = token
        self._timeout = timeout
        self._connections: Optional[Connections] = connections(self.origin, retry_reused=True) if self.origin else None

    # The raw door --------------------------------------------------------------------------------------------------

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        query: Optional[Mapping[str, Any]] = None,
        text: Optional[str] = None,
    ) -> Any:
        """One control request: `path` under /_emulator, a JSON `body` or YAML/JSON `text`; answers the parsed JSON."""
        target = f"{urllib.parse.urlsplit(self.origin).path}{CONTROL_PATH}{path}"
        given = {name: _query_text(value) for name, value in (query or {}).items() if value is not None}
        if given:
            target += "?" + urllib.parse.urlencode(given)
        headers = {"Accept": "application/json"}
        if self._token is not None:
            headers["Authorization"] = f"Bearer {self._token}"
        data = None
        if text is not None:
            headers["Content-Type"] = "application/yaml"
            data = text.encode("utf-8")
        elif body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode("utf-8")
        if self._connections is None:
            raise ControlError("NO_ANSWER", 0, "no emulator origin")
        try:
            status, _, parsed = self._connections.request(method, target, data, headers, self._timeout)
        except NoAnswer as error:
            raise ControlError("NO_ANSWER", 0, f"{error} (is the emulator running there?)") from error
        if 200 <= status < 300:
            return parsed
        error = parsed.get("error", parsed) if isinstance(parsed, dict) else {}
        raise ControlError(
            str(error.get("message", "UNEXPECTED_RESPONSE")),
            status,
            str(error.get("description", f"{method} {path} answered {status}: {str(parsed)[:200]}")),
        )

    def quote(self, segment: str) -> str:
        return urllib.parse.quote(segment, safe="")

    def close(self) -> None:
        """Closes this process's connections to the emulator."""
        if self._connections is not None:
            self._connections.close()

    # Health and the main clock -------------------------------------------------------------------------------------

    def health(self) -> Status:
        """`{"status": "ok"}` once the emulator answers (open even with a control token)."""
        return from_json(Status, self.call("GET", "/health"))

    def limits(self) -> Limits:
        """The limits applied, as started: batch limit (and why), message limit, largest body."""
        return from_json(Limits, self.call("GET", "/limits"))

    def clock_state(self) -> Clock:
        """The main clock: now, time, mode, speed, pending tasks, incidents."""
        return from_json(Clock, self.call("GET", "/clock"))

    def clock_move(
        self,
        advance: Optional[Duration] = None,
        set: Optional[Instant] = None,  # noqa: A002 (the command's field)
        mode: Optional[str] = None,
        speed: Optional[float] = None,
        run_until_idle: bool = False,
        limit: Optional[Duration] = None,
        next: bool = False,  # noqa: A002
    ) -> Clock:
        """Moves the main clock (mode/speed, then set, then advance; or run until idle within `limit`, or to the next
        event); answers after the webhooks it made due were tried."""
        return from_json(Clock, self.call("POST", "/clock", _clock_command(advance, set, run_until_idle, limit, next, mode, speed)))

    # Test clocks and worlds ----------------------------------------------------------------------------------------

    def clocks_list(self, page: Optional[int] = None, limit: Optional[int] = None) -> Page[TestClock]:
        """Every test clock, in creation order."""
        return page_of(TestClock, self.call("GET", "/clocks", query=_fields(page=page, limit=limit)))

    def clocks_get(self, id: str) -> TestClock:  # noqa: A002
        """One test clock."""
        return from_json(TestClock, self.call("GET", f"/clocks/{self.quote(id)}"))

    def clocks_create(self, start_time: Optional[Instant] = None, name: Optional[str] = None) -> TestClock:
        """A test clock, frozen until moved (default start: the main clock's now)."""
        body = _fields(start_time=None if start_time is None else instant_value(start_time), name=name)
        return from_json(TestClock, self.call("POST", "/clocks", body))

    def clocks_move(
        self,
        id: str,  # noqa: A002
        advance: Optional[Duration] = None,
        set: Optional[Instant] = None,  # noqa: A002
        run_until_idle: bool = False,
        limit: Optional[Duration] = None,
        next: bool = False,  # noqa: A002
    ) -> TestClock:
        """Moves a test clock (advance, set, run until idle within `limit`, or to its next event); only its own tasks
        fire; answers after their webhooks were tried."""
        command = _clock_command(advance, set, run_until_idle, limit, next)
        return from_json(TestClock, self.call("POST", f"/clocks/{self.quote(id)}", command))

    def clocks_delete(self, id: str) -> None:  # noqa: A002
        """Deletes a test clock and every account on it, with their messages, journal and webhook log entries."""
        self.call("DELETE", f"/clocks/{self.quote(id)}")

    def worlds_create(
        self,
        name: Optional[str] = None,
        start_time: Optional[Instant] = None,
        account: Optional[Mapping[str, Any]] = None,
        scenario: Optional[Scenario] = None,
    ) -> World:
        """A test clock, an account on it (`account`: api_key, signing_secret, balance, sandbox_balance, webhook_url,
        sandbox_webhook_url, scopes; snake_case or camelCase) and its own scenario, all or nothing."""
        body = _fields(
            name=name,
            start_time=None if start_time is None else instant_value(start_time),
            account=_camel_keys(account),
            scenario=scenario,
        )
        return from_json(World, self.call("POST", "/worlds", body))

    # Accounts ------------------------------------------------------------------------------------------------------

    def accounts_list(self, page: Optional[int] = None, limit: Optional[int] = None) -> Page[Account]:
        """Every account with balances, webhook URLs and opt-outs per environment."""
        return page_of(Account, self.call("GET", "/accounts", query=_fields(page=page, limit=limit)))

    def accounts_get(self, key: str) -> Account:
        """One account."""
        return from_json(Account, self.call("GET", f"/accounts/{self.quote(key)}"))

    def accounts_create(
        self,
        api_key: str,
        signing_secret: Optional[str] = None,
        balance: Optional[int] = None,
        sandbox_balance: Optional[int] = None,
        webhook_url: Optional[str] = None,
        sandbox_webhook_url: Optional[str] = None,
        scopes: Optional[List[str]] = None,
        clock: Optional[str] = None,
    ) -> Account:
        """Creates an account (an existing key is CONTROL_CONFLICT); `clock`: the test clock it lives on."""
        body = _fields(
            api_key=api_key,
            signing_secret=signing_secret,
            balance=balance,
            sandbox_balance=sandbox_balance,
            webhook_url=webhook_url,
            sandbox_webhook_url=sandbox_webhook_url,
            scopes=scopes,
            clock=clock,
        )
        return from_json(Account, self.call("POST", "/accounts", body))

    def accounts_update(
        self,
        key: str,
        signing_secret: Optional[str] = None,
        scopes: Optional[List[str]] = None,
        live: Optional[Mapping[str, Any]] = None,
        sandbox: Optional[Mapping[str, Any]] = None,
    ) -> Account:
        """Changes an account: its secret, scopes, and per environment `balance`, `add_balance` or `webhook_url`."""
        body = _fields(signing_secret=signing_secret, scopes=scopes, live=_camel_keys(live), sandbox=_camel_keys(sandbox))
        return from_json(Account, self.call("PATCH", f"/accounts/{self.quote(key)}", body))

    def accounts_delete(self, key: str) -> None:
        """Removes the account with its messages, journal entries and webhook log entries."""
        self.call("DELETE", f"/accounts/{self.quote(key)}")

    def accounts_get_scenario(self, key: str) -> Dict[str, Any]:
        """The account's own scenario (rules, replies, faults), defaults filled in."""
        return self.call("GET", f"/accounts/{self.quote(key)}/scenario")

    def accounts_set_scenario(self, key: str, scenario: Scenario) -> Dict[str, Any]:
        """Gives the account its own scenario: a dict, or YAML/JSON text."""
        return self._put_scenario(f"/accounts/{self.quote(key)}/scenario", scenario)

    def accounts_use_bundled_scenario(self, key: str, name: str) -> Dict[str, Any]:
        """Gives the account a bundled scenario by name ("degraded-api", "rate-limited", ...) as its own."""
        return self.call("PUT", f"/accounts/{self.quote(key)}/scenario/bundled/{self.quote(name)}")

    def accounts_clear_scenario(self, key: str) -> None:
        """Removes the account's own scenario."""
        self.call("DELETE", f"/accounts/{self.quote(key)}/scenario")

    # Messages, replies, webhooks -----------------------------------------------------------------------------------

    def messages_list(
        self,
        environment: Optional[str] = None,
        account: Optional[str] = None,
        status: Optional[str] = None,
        recipient: Optional[str] = None,
        client_reference: Optional[str] = None,
        page: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> Page[ControlMessage]:
        """Messages of both environments with legs and history, newest first, by the filters given."""
        query = _fields(
            environment=environment, account=account, status=status, recipient=recipient,
            client_reference=client_reference, page=page, limit=limit,
        )  # fmt: skip
        return page_of(ControlMessage, self.call("GET", "/messages", query=query))

    def messages_get(self, id: str) -> ControlMessage:  # noqa: A002
        """One message with legs, history and upcoming changes."""
        return from_json(ControlMessage, self.call("GET", f"/messages/{self.quote(id)}"))

    def messages_force_status(self, id: str, status: str, recipient: Optional[str] = None) -> ControlMessage:  # noqa: A002
        """Forces an outcome now, through legal moves only; answers after its webhooks were tried."""
        body = _fields(status=status, recipient=recipient)
        return from_json(ControlMessage, self.call("POST", f"/messages/{self.quote(id)}/status", body))

    def messages_wait(self, id: str, status: str, within: Optional[Duration] = None) -> Wait:  # noqa: A002
        """Moves the message's clock to each of its next changes until it has `status` and its webhooks were tried;
        CONTROL_WAIT_FAILED (with its history) when it ends otherwise or `within` (default 1h) passes."""
        body = _fields(status=status, within=None if within is None else duration_value(within))
        return from_json(Wait, self.call("POST", f"/messages/{self.quote(id)}/wait", body))

    def replies_inject(self, id: str, text: str, from_: Optional[str] = None) -> ControlMessage:  # noqa: A002
        """Injects an inbound reply to a sent message (`from_` defaults to its first recipient)."""
        body: Dict[str, Any] = {"text": text, **({} if from_ is None else {"from": from_})}
        return from_json(ControlMessage, self.call("POST", f"/messages/{self.quote(id)}/replies", body))

    def replies_list(
        self,
        environment: Optional[str] = None,
        account: Optional[str] = None,
        page: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> Page[ControlMessage]:
        """Inbound replies, oldest first."""
        query = _fields(environment=environment, account=account, page=page, limit=limit)
        return page_of(ControlMessage, self.call("GET", "/replies", query=query))

    def webhooks_list(
        self,
        account: Optional[str] = None,
        environment: Optional[str] = None,
        message: Optional[str] = None,
        state: Optional[str] = None,
        page: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> Page[WebhookEvent]:
        """The webhook log, oldest first: every event with every try."""
        query = _fields(account=account, environment=environment, message=message, state=state, page=page, limit=limit)
        return page_of(WebhookEvent, self.call("GET", "/webhooks", query=query))

    def webhooks_get(self, id: str) -> WebhookEvent:  # noqa: A002
        """One webhook event."""
        return from_json(WebhookEvent, self.call("GET", f"/webhooks/{self.quote(id)}"))

    def webhooks_redeliver(self, id: str) -> WebhookEvent:  # noqa: A002
        """Posts an event again to the account's current URL; answers once its tries end."""
        return from_json(WebhookEvent, self.call("POST", f"/webhooks/{self.quote(id)}/redeliver"))

    def webhooks_settled(self, account: Optional[str] = None) -> Status:
        """Answers once every webhook try under way or due has ended (of `account`'s clock only, when given)."""
        return from_json(Status, self.call("POST", "/webhooks/settle", _fields(account=account)))

    def webhooks_chaos(self) -> Chaos:
        """The delivery-behaviour rates in force (emulator-wide duplicate, late and reorder with a probability)."""
        return from_json(Chaos, self.call("GET", "/webhooks/chaos"))

    def webhooks_set_chaos(
        self,
        duplicate_rate: Optional[float] = None,
        delay_rate: Optional[float] = None,
        reorder_rate: Optional[float] = None,
        delay: Optional[Duration] = None,
    ) -> Chaos:
        """Changes the delivery-behaviour rates (rates 0 to 1); fields left out keep their value."""
        body = _fields(
            duplicate_rate=duplicate_rate,
            delay_rate=delay_rate,
            reorder_rate=reorder_rate,
            delay=None if delay is None else duration_value(delay),
        )
        return from_json(Chaos, self.call("POST", "/webhooks/chaos", body))

    # Scenarios, opt-outs, the journal ------------------------------------------------------------------------------

    def scenario_get(self) -> Dict[str, Any]:
        """The active scenario, defaults filled in."""
        return self.call("GET", "/scenario")

    def scenario_set(self, scenario: Scenario) -> Dict[str, Any]:
        """Replaces the active scenario: a dict, or YAML/JSON text."""
        return self._put_scenario("/scenario", scenario)

    def scenario_bundled(self) -> BundledScenarios:
        """The scenarios shipped with the emulator, by name with what each does."""
        return from_json(BundledScenarios, self.call("GET", "/scenario/bundled"))

    def scenario_use_bundled(self, name: str) -> Dict[str, Any]:
        """Makes a bundled scenario the active one by name."""
        return self.call("PUT", f"/scenario/bundled/{self.quote(name)}")

    def opt_outs_list(
        self,
        account: Optional[str] = None,
        environment: Optional[str] = None,
        page: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> Page[str]:
        """Numbers opted out of an account (default the default account) in an environment (default live)."""
        query = _fields(account=account, environment=environment, page=page, limit=limit)
        return page_of(str, self.call("GET", "/opt-outs", query=query))

    def opt_outs_add(self, number: str, account: Optional[str] = None, environment: Optional[str] = None) -> OptOut:
        """Opts a number out."""
        query = _fields(account=account, environment=environment)
        return from_json(OptOut, self.call("PUT", f"/opt-outs/{self.quote(number)}", query=query))

    def opt_outs_remove(self, number: str, account: Optional[str] = None, environment: Optional[str] = None) -> OptOut:
        """Opts a number back in."""
        query = _fields(account=account, environment=environment)
        return from_json(OptOut, self.call("DELETE", f"/opt-outs/{self.quote(number)}", query=query))

    def requests_find(self, page: Optional[int] = None, limit: Optional[int] = None, **filters: Any) -> Page[JournalEntry]:
        """The request journal, newest first; filters `account`, `environment`, `method`, `path` (part of), `status`,
        `code`, `since` (emulator time as text or datetime, or a journal id), `message`."""
        return page_of(JournalEntry, self.call("GET", "/requests", query=_journal_filter(filters, page, limit)))

    def requests_count(self, **filters: Any) -> int:
        """How many journal entries match the same filters as `requests_find`."""
        return int(self.call("GET", "/requests/count", query=_journal_filter(filters, None, None)))

    # Signing, state ------------------------------------------------------------------------------------------------

    def sign(self, fields: Mapping[str, Any], account: Optional[str] = None) -> Signature:
        """The canonical string and signature of a body, with the secret of `account` (default the default account)."""
        return from_json(Signature, self.call("POST", "/sign", dict(fields), query=_fields(account=account)))

    def reset(self, account: Optional[str] = None) -> Status:
        """Back to the start-up state; with `account`, that account only."""
        return from_json(Status, self.call("POST", "/reset", _fields(account=account)))

    def snapshot(self) -> Dict[str, Any]:
        """The whole state as JSON."""
        return self.call("GET", "/snapshot")

    def restore(self, snapshot: Mapping[str, Any]) -> Status:
        """Replaces the whole state with a snapshot; a bad one changes nothing."""
        return from_json(Status, self.call("PUT", "/snapshot", dict(snapshot)))

    # The receiver check ------------------------------------------------------------------------------------------

    def receiver_check(
        self,
        receiver: str,
        state: Optional[str] = None,
        receiver_timeout: Optional[Duration] = None,
        only: Optional[Sequence[str]] = None,
        skip: Optional[Sequence[str]] = None,
        seed: Optional[str] = None,
        at: Optional[Instant] = None,
        signing_secret: Optional[str] = None,
    ) -> ReceiverReport:
        """Scores a webhook receiver (the app's URL) with realistic deliveries, as `sms-emulator check-receiver --json`
        does: `state` is a URL template with {id} the check reads after each sequence; `only`/`skip` name checks;
        answers the report when the run ends."""
        body = _fields(
            receiver=receiver,
            state=state,
            receiver_timeout=None if receiver_timeout is None else duration_value(receiver_timeout),
            only=None if only is None else list(only),
            skip=None if skip is None else list(skip),
            seed=seed,
            at=None if at is None else instant_value(at),
            signing_secret=signing_secret,
        )
        return from_json(ReceiverReport, self.call("POST", "/receiver-check", body))

    def check_receiver(self, url: str, **options: Any) -> ReceiverReport:
        """`receiver_check` by the CLI command's name: `check_receiver(url, only=["statuses"], ...)`."""
        if "timeout" in options:
            options["receiver_timeout"] = options.pop("timeout")
        return self.receiver_check(url, **options)

    def _put_scenario(self, path: str, scenario: Scenario) -> Dict[str, Any]:
        if isinstance(scenario, str):
            return self.call("PUT", path, text=scenario)
        return self.call("PUT", path, dict(scenario))


def _clock_command(
    advance: Optional[Duration],
    set_to: Optional[Instant],
    run_until_idle: bool,
    limit: Optional[Duration],
    next_event: bool,
    mode: Optional[str] = None,
    speed: Optional[float] = None,
) -> Dict[str, Any]:
    command: Dict[str, Any] = _fields(mode=mode, speed=speed)
    if set_to is not None:
        command["set"] = instant_value(set_to)
    if advance is not None:
        command["advance"] = duration_value(advance)
    if run_until_idle:
        command["runUntilIdle"] = True
    if limit is not None:
        command["limit"] = duration_value(limit)
    if next_event:
        command["next"] = True
    return command


def _journal_filter(filters: Mapping[str, Any], page: Optional[int], limit: Optional[int]) -> Dict[str, Any]:
    given = dict(filters)
    if "since" in given and given["since"] is not None and not isinstance(given["since"], str):
        given["since"] = instant_value(given["since"])
    return _fields(page=page, limit=limit, **given)


def _query_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

