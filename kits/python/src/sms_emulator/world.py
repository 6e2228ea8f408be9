"""A test's own world: an account on its own test clock, a signing client, a webhook route, and what to assert with."""

import re
import uuid
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Pattern, Union

from .catcher import Catcher, CatcherServer
from .client import SmsClient
from .control import Control, ControlError
from .emulator import Emulator


class WorldClock:
    """The test's clock: frozen until moved, and only this test's account lives on it."""

    def __init__(self, control: Control, view: Dict[str, Any]):
        self._control = control
        self.id: str = view["id"]
        self._now: int = view["now"]

    def _move(self, command: Dict[str, Any]) -> Dict[str, Any]:
        view = self._control.call("POST", f"/clocks/{self._control.quote(self.id)}", command)
        self._track(view["now"])
        return view

    def _track(self, now: int) -> None:
        self._now = max(self._now, now)

    def advance(self, duration: Union[str, int]) -> Dict[str, Any]:
        """Moves the clock forward ('15m', '1h30m', or milliseconds), firing what falls due on the way."""
        return self._move({"advance": duration})

    def set(self, instant: Union[str, datetime]) -> Dict[str, Any]:
        """Moves the clock to an instant (ISO text or an aware datetime); never backwards."""
        return self._move({"set": instant.isoformat() if isinstance(instant, datetime) else instant})

    def run_until_idle(self, limit: Optional[str] = None) -> Dict[str, Any]:
        return self._move({"runUntilIdle": True, **({} if limit is None else {"limit": limit})})

    def next(self) -> Dict[str, Any]:
        return self._move({"next": True})

    def now(self) -> datetime:
        """The clock's time, at once: nothing but this test moves it, so it is the time its last move answered."""
        return datetime.fromtimestamp(self._now / 1000, tz=timezone.utc)


class MessageWait:
    def __init__(self, world: "SmsWorld", message_id: str):
        self._world = world
        self._id = message_id

    def to_reach(self, status: str, within: str = "1h") -> Dict[str, Any]:
        """Moves the test's clock to the message's next changes until it has `status` and its webhooks were tried.

        Fails the test with the message's history when it ends otherwise or `within` passes first."""
        control = self._world.emulator.control
        try:
            answer = control.call("POST", f"/messages/{control.quote(self._id)}/wait", {"status": status, "within": within})
        except ControlError as error:
            if error.code == "CONTROL_WAIT_FAILED":
                raise AssertionError(f"sms-emulator: {error.description}") from None
            raise
        self._world.clock._track(answer["clock"]["now"])
        return answer["message"]


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

    def __init__(self, emulator: Emulator, catchers: CatcherServer, name: str = ""):
        self.emulator = emulator
        self.api_key = f"pk_test_{uuid.uuid4().hex}"
        self.signing_secret = f"sk_test_{uuid.uuid4().hex}"
        self.catcher: Catcher = catchers.route(f"/webhooks/{self.api_key}")
        account = {
            "apiKey": self.api_key,
            "signingSecret": self.signing_secret,
            "webhookUrl": self.catcher.url,
            "sandboxWebhookUrl": self.catcher.url,
        }
        created = emulator.control.call(
            "POST", "/worlds", {**({"name": name[:200]} if name else {}), "account": account}
        )
        self.clock = WorldClock(emulator.control, created["clock"])
        self.base_url = emulator.origin
        self.client = SmsClient(emulator.origin, self.api_key, self.signing_secret)

    def now(self) -> datetime:
        return self.clock.now()

    def wait_for(self, message_id: str) -> MessageWait:
        return MessageWait(self, message_id)

    def scenario(self, scenario: Union[Dict[str, Any], str]) -> Dict[str, Any]:
        """Gives the account its own scenario (rules, replies, faults): a dict, or YAML/JSON text."""
        path = f"/accounts/{self.emulator.control.quote(self.api_key)}/scenario"
        if isinstance(scenario, str):
            return self.emulator.control.call("PUT", path, text=scenario)
        return self.emulator.control.call("PUT", path, scenario)

    def use_bundled_scenario(self, name: str) -> Dict[str, Any]:
        """Gives the account a bundled scenario by name ('degraded-api', 'rate-limited', ...)."""
        control = self.emulator.control
        return control.call("PUT", f"/accounts/{control.quote(self.api_key)}/scenario/bundled/{control.quote(name)}")

    def messages(self) -> List[Dict[str, Any]]:
        """The account's messages with their legs and history, newest first."""
        return self.emulator.control.call("GET", "/messages", query={"account": self.api_key, "limit": 1000})["items"]

    def webhooks(self) -> List[Any]:
        """The payloads the emulator posted to this test's route, in the order they arrived."""
        return [request.json for request in self.catcher.received]

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

    def report_html(self) -> str:
        """The account's timeline report: every request, message change, webhook try and reply, with times."""
        return self.emulator.control.call("GET", "/report", query={"account": self.api_key})

    def close(self) -> None:
        try:
            self.emulator.control.call("DELETE", f"/clocks/{self.emulator.control.quote(self.clock.id)}")
        except ControlError as error:
            # The test may have deleted its clock itself, or reset the emulator.
            if error.code != "CONTROL_NOT_FOUND":
                raise
        finally:
            self.catcher.close()
