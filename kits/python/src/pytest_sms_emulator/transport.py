"""The transport under the generated Control (control.py): one control request over the kept-alive connections of
http.py, its errors as ControlError; hand-written, as it belongs to this kit's ecosystem rather than to the contract."""

import json
import urllib.parse
from typing import Any, Mapping, Optional, Union

from .http import Connections, NoAnswer, connections
from .settings import CONTROL_PATH, CONTROL_TIMEOUT, duration_ms

#: A scenario: a dict (sent as JSON), or YAML or JSON text.
Scenario = Union[str, Mapping[str, Any]]

#: How long one control request may take, in seconds (the contract's `settings.controlTimeout`).
CONTROL_TIMEOUT_SECONDS = duration_ms("controlTimeout", CONTROL_TIMEOUT) / 1000


class ControlError(Exception):
    """An error answer of the control API: its catalogued code, HTTP status and description."""

    def __init__(self, code: str, status: int, description: str):
        super().__init__(f"{code} ({status}): {description}")
        self.code = code
        self.status = status
        self.description = description


class ControlTransport:
    """Calls `<origin>/_emulator<path>`; an error answer raises ControlError, no answer raises ControlError NO_ANSWER."""

    def __init__(self, origin: str, token: Optional[str] = None, timeout: Optional[float] = None):
        self.origin = origin.rstrip("/")
        self._token = token
        self._timeout = CONTROL_TIMEOUT_SECONDS if timeout is None else timeout
        self._connections: Optional[Connections] = connections(self.origin, retry_reused=True) if self.origin else None

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
        """A path segment, percent-encoded whole."""
        return urllib.parse.quote(segment, safe="")

    def close(self) -> None:
        """Closes this process's connections to the emulator."""
        if self._connections is not None:
            self._connections.close()


def _query_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
