"""A webhook receiver in the test process: one HTTP server per session, one route per test's account."""

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Sequence, Union


@dataclass(frozen=True)
class CaughtRequest:
    """One post the emulator made: its headers (names in lower case), its body as text and as parsed JSON."""

    path: str
    headers: Dict[str, str]
    text: str

    @property
    def json(self) -> Any:
        return json.loads(self.text)


class Catcher:
    """What one route received, and how it answers: 200 unless told otherwise (`respond_with([500, 200])`)."""

    def __init__(self, server: "CatcherServer", path: str):
        self._server = server
        self.path = path
        self.url = f"{server.origin}{path}"
        self.received: List[CaughtRequest] = []
        self._answers: List[int] = []
        self._always = 200
        self._changed = threading.Condition()

    def respond_with(self, statuses: Union[int, Sequence[int]]) -> None:
        """One status for every post, or a list used in turn (the last one then stays)."""
        with self._changed:
            if isinstance(statuses, int):
                self._answers, self._always = [], statuses
            else:
                self._answers, self._always = list(statuses[:-1]), statuses[-1]

    def wait_for(self, count: int, timeout: float = 10.0) -> List[CaughtRequest]:
        """Waits until `count` posts arrived (wall clock: webhooks travel over a real socket)."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"the catcher at {self.path} received {len(self.received)} posts, not {count}")
            return list(self.received)

    def close(self) -> None:
        self._server._routes.pop(self.path, None)

    def _take(self, request: CaughtRequest) -> int:
        with self._changed:
            self.received.append(request)
            status = self._answers.pop(0) if self._answers else self._always
            self._changed.notify_all()
            return status


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        length = int(self.headers.get("Content-Length") or 0)
        text = self.rfile.read(length).decode("utf-8")
        route: Optional[Catcher] = self.server._routes.get(self.path)  # type: ignore[attr-defined]
        status = 404 if route is None else route._take(CaughtRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, text))
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


class CatcherServer:
    """Listens on 127.0.0.1, a free port, in a daemon thread; routes posts by path."""

    def __init__(self) -> None:
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._http.daemon_threads = True
        self._routes: Dict[str, Catcher] = {}
        self._http._routes = self._routes  # type: ignore[attr-defined]
        self.origin = f"http://127.0.0.1:{self._http.server_address[1]}"
        threading.Thread(target=self._http.serve_forever, daemon=True).start()

    def route(self, path: str) -> Catcher:
        catcher = Catcher(self, path)
        self._routes[path] = catcher
        return catcher

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()
