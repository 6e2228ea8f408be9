"""A signing client for the SMS API (/v1 and /sandbox/v1): send, schedule, list, get, edit, delete, balance."""

import base64
import json
import urllib.parse
from datetime import datetime
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .http import NoAnswer, connections
from .schedule import format_schedule
from .signing import sign


class SmsApiError(Exception):
    """An error answer of the API: its code (e.g. SIGNATURE_MISMATCH), HTTP status, description and headers.

    `code` is NETWORK_ERROR (status 0) when no answer came at all; `retry_after` is the Retry-After header in seconds
    (of the emulator's clock: a rate limit counts on the test's clock, so move it instead of sleeping).
    """

    def __init__(self, code: str, status: int, description: str, headers: Optional[Mapping[str, str]] = None):
        super().__init__(f"{code} ({status}): {description}")
        self.code = code
        self.status = status
        self.description = description
        self.headers = {name.lower(): value for name, value in (headers or {}).items()}
        retry = self.headers.get("retry-after")
        self.retry_after = int(retry) if retry is not None and retry.isdigit() else None


#: The API's path per environment (the contract's `paths.api`).
API_PATHS = {"live": "/v1", "sandbox": "/sandbox/v1"}

Recipients = Union[str, Sequence[str]]
Schedule = Union[str, datetime, None]


class SmsClient:
    """Signs every request with the account's secret, as the API requires (Basic auth with the API key)."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        signing_secret: str,
        environment: str = "live",
        time_zone_offset: str = "+02:00",
        timeout: float = 30.0,
    ):
        if environment not in API_PATHS:
            raise ValueError(f"environment is one of {', '.join(API_PATHS)}, not {environment!r}")
        self.environment = environment
        self._connections = connections(base_url, retry_reused=False)
        self._root = urllib.parse.urlsplit(base_url).path.rstrip("/") + API_PATHS[environment] + "/messages"
        self._auth = "Basic " + base64.b64encode(f"{api_key}:".encode()).decode()
        self._secret = signing_secret
        self._offset = time_zone_offset
        self._timeout = timeout

    def send(
        self, recipient: Recipients, message: str, client_reference: Optional[str] = None, schedule: Schedule = None
    ) -> Dict[str, Any]:
        """Sends (or, with `schedule`, schedules) a message; answers the message object."""
        body: Dict[str, Any] = {"recipient": _recipients(recipient), "message": message}
        if client_reference is not None:
            body["client_reference"] = client_reference
        if schedule is not None:
            body["schedule"] = self._schedule(schedule)
        return self._call("POST", "", body)

    def schedule(
        self, recipient: Recipients, message: str, schedule: Union[str, datetime], client_reference: Optional[str] = None
    ) -> Dict[str, Any]:
        return self.send(recipient, message, client_reference=client_reference, schedule=schedule)

    def list(self, **query: Any) -> Dict[str, Any]:
        """A page of messages, newest first: recipient, status, search, page, limit."""
        given = {name: str(value) for name, value in query.items() if value is not None}
        return self._call("GET", "?" + urllib.parse.urlencode(given) if given else "")

    def get(self, message_id: str) -> Dict[str, Any]:
        return self._call("GET", "/" + urllib.parse.quote(message_id, safe=""))

    def edit(
        self,
        message_id: str,
        recipient: Optional[Recipients] = None,
        message: Optional[str] = None,
        client_reference: Optional[str] = None,
        schedule: Schedule = None,
    ) -> Dict[str, Any]:
        """Edits a scheduled message: only the fields given change."""
        body: Dict[str, Any] = {}
        if recipient is not None:
            body["recipient"] = _recipients(recipient)
        if message is not None:
            body["message"] = message
        if client_reference is not None:
            body["client_reference"] = client_reference
        if schedule is not None:
            body["schedule"] = self._schedule(schedule)
        return self._call("PATCH", "/" + urllib.parse.quote(message_id, safe=""), body)

    def delete(self, message_id: str) -> Dict[str, Any]:
        return self._call("DELETE", "/" + urllib.parse.quote(message_id, safe=""))

    def balance(self) -> int:
        return int(self._call("GET", "/balance")["balance"])

    def _schedule(self, schedule: Union[str, datetime]) -> str:
        return schedule if isinstance(schedule, str) else format_schedule(schedule, self._offset)

    def _call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        headers = {"Authorization": self._auth, "Accept": "application/json"}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            headers["Signature"] = sign(body, self._secret)
            data = json.dumps(body).encode("utf-8")
        url = self._root + path
        try:
            status, answered, parsed = self._connections.request(method, url, data, headers, self._timeout)
        except NoAnswer as error:
            raise SmsApiError("NETWORK_ERROR", 0, str(error)) from error
        error = parsed.get("error", parsed) if isinstance(parsed, dict) else None
        if 200 <= status < 300 and isinstance(parsed, dict) and "description" not in parsed:
            return parsed
        if isinstance(error, dict) and "message" in error:
            raise SmsApiError(str(error["message"]), status, str(error.get("description", "")), answered)
        raise SmsApiError("UNEXPECTED_RESPONSE", status, f"{method} {url} answered {status}: {str(parsed)[:200]}", answered)


def _recipients(recipient: Recipients) -> List[str]:
    return [recipient] if isinstance(recipient, str) else list(recipient)
