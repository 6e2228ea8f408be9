"""JSON requests to one emulator over connections kept alive per thread, agreed with the emulator's keep-alive timeout."""

import http.client
import json
import re
import select
import socket
import threading
import time
import urllib.parse
from typing import Any, Dict, List, Mapping, Optional, Tuple

#: The emulator closes a connection idle for 5 s (src/http/server.ts); the kit stops reusing one a second earlier,
#: so a request is not written into a connection the emulator is closing at that moment.
IDLE_LIMIT = 4.0

Answer = Tuple[int, Dict[str, str], Any]


#: A scheme, `//`, then the authority up to the first `/`, `?`, `#`, white space or a character no URL holds unencoded.
_AUTHORITY = re.compile(r"\b([a-z][a-z0-9+.-]*:[/\\]{2})([^\s/\\?#\"<>`{}|^]*)", re.IGNORECASE)


def shown_url(text: str) -> str:
    """`text` with the password of every URL in it masked as `***`, the user name kept: the emulator's rule for what is
    shown (docs/security.md#credentials-in-what-it-shows), for the kit's own printed lines and errors. The userinfo
    ends at the authority's last `@`, the password starts after its first `:`."""

    def masked(found: "re.Match[str]") -> str:
        scheme, authority = found.group(1), found.group(2)
        at, colon = authority.rfind("@"), authority.find(":")
        if at < 0 or colon < 0 or colon >= at - 1:
            return found.group(0)
        return f"{scheme}{authority[: colon + 1]}***{authority[at:]}"

    return _AUTHORITY.sub(masked, text) if "@" in text else text


class NoAnswer(Exception):
    """The request got no HTTP answer: refused, reset, timed out."""


class _Kept:
    """One open connection and when its last answer ended."""

    def __init__(self, connection: http.client.HTTPConnection):
        self.connection = connection
        self.idle_since = time.monotonic()


class Connections:
    """The connections of one origin: one per thread, reused while the emulator keeps it open.

    `retry_reused`: a request written into a reused connection that fails before any byte of an answer is sent once
    more on a new one (the emulator may close an idle connection as the request goes out). The kit's control calls
    retry; the signing client does not, so a network fault a test set up on its account always reaches the test.
    """

    def __init__(self, origin: str, retry_reused: bool, idle_limit: float = IDLE_LIMIT):
        parts = urllib.parse.urlsplit(origin)
        self.origin = origin.rstrip("/")
        #: The origin as errors quote it (a password in it masked).
        self.shown = shown_url(self.origin)
        self._secure = parts.scheme == "https"
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port
        self._retry = retry_reused
        self.idle_limit = idle_limit
        self._local = threading.local()
        self._all: List[_Kept] = []
        self._lock = threading.Lock()

    def _open(self, timeout: float) -> _Kept:
        kind = http.client.HTTPSConnection if self._secure else http.client.HTTPConnection
        kept = _Kept(kind(self._host, self._port, timeout=timeout))
        with self._lock:
            self._all.append(kept)
        return kept

    def _drop(self, kept: Optional[_Kept]) -> None:
        if kept is None:
            return
        kept.connection.close()
        with self._lock:
            if kept in self._all:
                self._all.remove(kept)
        if getattr(self._local, "kept", None) is kept:
            self._local.kept = None

    def _usable(self, kept: Optional[_Kept]) -> bool:
        """A kept connection may carry the next request: idle less than the limit, and not closed by the emulator
        (a closed socket reads as ready: its end of file)."""
        if kept is None or kept.connection.sock is None:
            return False
        if time.monotonic() - kept.idle_since >= self.idle_limit:
            return False
        try:
            readable, _, _ = select.select([kept.connection.sock], [], [], 0)
        except (OSError, ValueError):
            return False
        return not readable

    def current(self) -> Optional[http.client.HTTPConnection]:
        """This thread's kept connection, if any (for tests that watch it being closed)."""
        kept: Optional[_Kept] = getattr(self._local, "kept", None)
        return None if kept is None else kept.connection

    def request(
        self, method: str, target: str, body: Optional[bytes], headers: Mapping[str, str], timeout: float
    ) -> Answer:
        """Sends one request to `target` (path and query); answers (status, headers, parsed JSON or text or None)."""
        kept: Optional[_Kept] = getattr(self._local, "kept", None)
        reused = self._usable(kept)
        if not reused:
            self._drop(kept)
            kept = self._open(timeout)
            self._local.kept = kept
        assert kept is not None
        try:
            return self._exchange(kept, method, target, body, headers, timeout)
        except _BeforeAnswer as failure:
            self._drop(kept)
            if not (reused and self._retry):
                raise NoAnswer(f"{method} {self.shown}{target} got no answer: {failure.cause}") from failure.cause
            fresh = self._open(timeout)
            self._local.kept = fresh
            try:
                return self._exchange(fresh, method, target, body, headers, timeout)
            except _BeforeAnswer as again:
                self._drop(fresh)
                raise NoAnswer(f"{method} {self.shown}{target} got no answer: {again.cause}") from again.cause

    def _exchange(
        self, kept: _Kept, method: str, target: str, body: Optional[bytes], headers: Mapping[str, str], timeout: float
    ) -> Answer:
        connection = kept.connection
        connection.timeout = timeout
        if connection.sock is not None:
            connection.sock.settimeout(timeout)
        try:
            connection.request(method, target, body=body, headers=dict(headers))
            answer = connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError, http.client.BadStatusLine) as error:
            # Nothing of an answer arrived: the connection ended before it (or refused it).
            raise _BeforeAnswer(error) from error
        except (socket.timeout, TimeoutError, OSError, http.client.HTTPException) as error:
            self._drop(kept)
            raise NoAnswer(f"{method} {self.shown}{target} got no answer: {error}") from error
        try:
            raw = answer.read()
        except (OSError, http.client.HTTPException) as error:
            self._drop(kept)
            raise NoAnswer(f"{method} {self.shown}{target}: the answer was cut: {error}") from error
        if answer.will_close:
            self._drop(kept)
        else:
            kept.idle_since = time.monotonic()
        return answer.status, dict(answer.getheaders()), _parse(raw)

    def close(self) -> None:
        """Closes every connection of every thread."""
        with self._lock:
            kept_all, self._all = self._all, []
        for kept in kept_all:
            kept.connection.close()


class _BeforeAnswer(Exception):
    def __init__(self, cause: BaseException):
        super().__init__(str(cause))
        self.cause = cause


_shared: Dict[Tuple[str, bool], Connections] = {}
_shared_lock = threading.Lock()


def connections(origin: str, retry_reused: bool) -> Connections:
    """The process's connections to an origin (one pool for the session's worlds, so a world opens none of its own)."""
    key = (origin.rstrip("/"), retry_reused)
    with _shared_lock:
        found = _shared.get(key)
        if found is None:
            found = _shared[key] = Connections(origin, retry_reused)
        return found


def forget(origin: str) -> None:
    """Closes and forgets the pools of an origin (its emulator stopped)."""
    with _shared_lock:
        for key in [key for key in _shared if key[0] == origin.rstrip("/")]:
            _shared.pop(key).close()


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8")
    try:
        return json.loads(text)
    except ValueError:
        return text
