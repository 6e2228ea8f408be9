"""The emulator's control API (/_emulator), as docs/control-api.md documents it: the kit's only door into it."""

import json
import urllib.parse
from typing import Any, Mapping, Optional

from .http import NoAnswer, request


class ControlError(Exception):
    """An error answer of the control API: its catalogued code, HTTP status and description."""

    def __init__(self, code: str, status: int, description: str):
        super().__init__(f"{code} ({status}): {description}")
        self.code = code
        self.status = status
        self.description = description


class Control:
    """Calls `<origin>/_emulator<path>` with JSON (or text) bodies; an error answer raises ControlError."""

    def __init__(self, origin: str, token: Optional[str] = None, timeout: float = 60.0):
        self.origin = origin.rstrip("/")
        self._token = token
        self._timeout = timeout

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        query: Optional[Mapping[str, Any]] = None,
        text: Optional[str] = None,
    ) -> Any:
        url = f"{self.origin}/_emulator{path}"
        given = {name: str(value) for name, value in (query or {}).items() if value is not None}
        if given:
            url += "?" + urllib.parse.urlencode(given)
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
        try:
            status, _, parsed = request(method, url, data, headers, self._timeout)
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
