"""One JSON request over HTTP with the standard library: the answer's status, headers and parsed body."""

import json
import socket
import urllib.error
import urllib.request
from typing import Any, Dict, Mapping, Optional, Tuple


class NoAnswer(Exception):
    """The request got no HTTP answer: refused, reset, timed out."""


def request(
    method: str,
    url: str,
    body: Optional[bytes] = None,
    headers: Optional[Mapping[str, str]] = None,
    timeout: float = 30.0,
) -> Tuple[int, Dict[str, str], Any]:
    """Sends one request; answers (status, headers, parsed JSON or the text, or None when empty), error statuses too."""
    outgoing = urllib.request.Request(url, data=body, method=method, headers=dict(headers or {}))
    try:
        with urllib.request.urlopen(outgoing, timeout=timeout) as answer:
            return answer.status, dict(answer.headers.items()), _parse(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers.items()), _parse(error.read())
    except (urllib.error.URLError, ConnectionError, socket.timeout, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise NoAnswer(f"{method} {url} got no answer: {reason}") from error


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8")
    try:
        return json.loads(text)
    except ValueError:
        return text
