"""A webhook receiver in the test process: one HTTP server per session, one route per test's world, each keeping a copy
of every delivery and answering it itself or with the app's own handler (a URL, or a function in the test process).

It keeps only what the emulator posted: a post whose `Webhook-Signature` is not the hex HMAC-SHA256 of its body with the
world's webhook signing secret is answered 401, never counted nor passed to the app, and kept among the route's
`refused` posts (the first 100, without their bodies: a flood of forged posts costs no memory); a body larger than the
emulator's own largest body (its `maxBodySize`) is answered 413 unread."""

import hashlib
import hmac
import http.client
import io
import json
import sys
import threading
import traceback
import urllib.parse
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .http import shown_url

#: Headers the catcher does not pass on to an app's URL (the connection's own; the rest go as they came).
_HOP_HEADERS = {"host", "content-length", "connection", "keep-alive", "transfer-encoding"}


@dataclass
class CaughtRequest:
    """One post the emulator made: method, path, headers (names in lower case), body (bytes and text), and the status
    it was answered with (the app's, when the world sends its webhooks to the app)."""

    path: str
    headers: Dict[str, str]
    text: str
    body: bytes = b""
    method: str = "POST"
    status: Optional[int] = None

    @property
    def json(self) -> Any:
        return json.loads(self.text)


#: What an app's in-process handler answers: a status, (status, body) or (status, body, headers).
HandlerAnswer = Union[int, Tuple[int, Union[str, bytes]], Tuple[int, Union[str, bytes], Dict[str, str]]]
#: An app's in-process webhook handler: called with each delivery, in a thread of the catcher.
Handler = Callable[[CaughtRequest], HandlerAnswer]
#: Where a world's webhooks go beside the kit's copy: the app's URL, or its in-process handler.
AppWebhook = Union[str, Handler, None]

_Answer = Tuple[int, bytes, Dict[str, str]]


def forward_to_url(url: str, request: CaughtRequest, timeout: float = 30.0) -> _Answer:
    """Posts a delivery to the app's URL unchanged (method, body bytes, headers) and answers the app's answer; an app
    that does not answer is a 502 to the emulator, which then retries as it would a real one."""
    parts = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = {name: value for name, value in request.headers.items() if name not in _HOP_HEADERS}
    try:
        connection.request(request.method, target, body=request.body, headers=headers)
        answer = connection.getresponse()
        body = answer.read()
        kept = {name: value for name, value in answer.getheaders() if name.lower() not in _HOP_HEADERS}
        return answer.status, body, kept
    except (OSError, http.client.HTTPException) as error:
        # The emulator keeps the start of this answer in its webhook log: the app URL's password is not in it.
        return 502, f"the app at {shown_url(url)} did not answer: {error}".encode(), {"Content-Type": "text/plain"}
    finally:
        connection.close()


def call_handler(handler: Handler, request: CaughtRequest) -> _Answer:
    """Calls an in-process handler; an exception it raises is a 500 to the emulator (its traceback is the body), as a
    web framework would answer."""
    try:
        given = handler(request)
    except Exception:  # the app's own error: the emulator sees what a server would send
        text = traceback.format_exc()
        print(f"sms-emulator: the app's webhook handler raised:\n{text}", file=sys.stderr)
        return 500, text.encode(), {"Content-Type": "text/plain"}
    if isinstance(given, int):
        return given, b"", {}
    status, body, *rest = given
    headers = dict(rest[0]) if rest else {}
    return status, body.encode() if isinstance(body, str) else bytes(body), headers


def wsgi_handler(app: Callable[..., Iterable[bytes]], path: str = "/") -> Handler:
    """An app's WSGI application (Flask, Django, Falcon, ...) as an in-process webhook handler: each delivery is a POST
    to `path` of the app, with the delivery's headers and body."""

    def handle(request: CaughtRequest) -> HandlerAnswer:
        environ: Dict[str, Any] = {
            "REQUEST_METHOD": request.method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path.split("?")[0],
            "QUERY_STRING": path.split("?", 1)[1] if "?" in path else "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "CONTENT_TYPE": request.headers.get("content-type", ""),
            "CONTENT_LENGTH": str(len(request.body)),
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(request.body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
        }
        for name, value in request.headers.items():
            if name not in ("content-type", "content-length"):
                environ["HTTP_" + name.upper().replace("-", "_")] = value
        started: Dict[str, Any] = {}

        def start_response(status: str, headers: List[Tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
            started["status"], started["headers"] = int(status.split(" ", 1)[0]), dict(headers)
            return lambda chunk: None

        chunks = app(environ, start_response)
        try:
            body = b"".join(chunks)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        return started["status"], body, started["headers"]

    return handle


def signed_by(secret: Optional[str], body: bytes, signature: Optional[str]) -> bool:
    """Is `signature` the Webhook-Signature the emulator gives `body` with `secret` (lowercase hex HMAC-SHA256)?"""
    if not secret or signature is None:
        return False
    expected = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature.strip().lower())


#: How many refused posts a route describes; past it, it only counts them.
KEPT_REFUSALS = 100


class Catcher:
    """One world's route: what it received, and how it answers. Without an app handler it answers 200 unless told
    otherwise (`respond_with([500, 200])`); with one (`app`: a URL or a function) it answers what the app answers.

    `secret` is the world's webhook signing secret: until it is set, and whenever a post's signature does not match it,
    the post is refused (401) and kept in `refused`, not in `received`."""

    def __init__(self, server: "CatcherServer", path: str, app: AppWebhook = None, secret: Optional[str] = None):
        self._server = server
        self.path = path
        self.url = f"{server.origin}{path}"
        self.app = app
        self.secret = secret
        self.received: List[CaughtRequest] = []
        #: Posts this route refused: unsigned or wrongly signed (401) or too large (413), in the order they came; the
        #: first `KEPT_REFUSALS` of them, each without its body (`refused_count` counts them all).
        self.refused: List[CaughtRequest] = []
        self.refused_count = 0
        self._answers: List[int] = []
        self._always = 200
        self._changed = threading.Condition()

    def respond_with(self, statuses: Union[int, Sequence[int]]) -> None:
        """One status for every post, or a list used in turn (the last one then stays); not with an app handler."""
        if self.app is not None:
            raise ValueError("this world's webhooks go to the app's own handler, which decides the answers")
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

    def _refuse(self, request: CaughtRequest, status: int, why: str) -> _Answer:
        with self._changed:
            self.refused_count += 1
            if len(self.refused) < KEPT_REFUSALS:
                # Described, not kept: a body of up to the emulator's largest, once per forged post, would let any
                # local process grow the test process without bound.
                self.refused.append(CaughtRequest(request.path, request.headers, "", b"", request.method, status))
        return status, why.encode(), {"Content-Type": "text/plain"}

    def _answer(self, request: CaughtRequest) -> _Answer:
        if not signed_by(self.secret, request.body, request.headers.get("webhook-signature")):
            return self._refuse(request, 401, "Webhook-Signature does not match the world's webhook signing secret")
        if self.app is None:
            with self._changed:
                status = self._answers.pop(0) if self._answers else self._always
        elif isinstance(self.app, str):
            status, body, headers = forward_to_url(self.app, request)
        else:
            status, body, headers = call_handler(self.app, request)
        if self.app is None:
            body, headers = b"", {}
        request.status = status
        with self._changed:
            # The copy is kept once the answer is known, so a wait that sees it sees what the emulator was told.
            self.received.append(request)
            self._changed.notify_all()
        return status, body, headers


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _any(self) -> None:
        route: Optional[Catcher] = self.server._routes.get(self.path)  # type: ignore[attr-defined]
        headers_in = {name.lower(): value for name, value in self.headers.items()}
        declared = headers_in.get("content-length", "0")
        largest: int = self.server.max_body  # type: ignore[attr-defined]
        if "transfer-encoding" in headers_in or not declared.isdigit() or int(declared) > largest:
            # Not read at all: a body of unknown or too large a size could hold the test process's memory.
            self.close_connection = True
            caught = CaughtRequest(self.path, headers_in, "", b"", self.command)
            why = f"a webhook body is at most {largest} bytes (the emulator's maxBodySize), with a Content-Length"
            status, body, headers = (404, b"", {}) if route is None else route._refuse(caught, 413, why)
        else:
            raw = self.rfile.read(int(declared))
            if route is None:
                status, body, headers = 404, b"", {}
            else:
                caught = CaughtRequest(self.path, headers_in, raw.decode("utf-8", "replace"), raw, self.command)
                status, body, headers = route._answer(caught)
        self.send_response(status)
        for name, value in headers.items():
            if name.lower() not in _HOP_HEADERS:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_PUT = do_PATCH = do_DELETE = _any  # noqa: N815 (the standard library's names)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


class _Server(ThreadingHTTPServer):
    # The standard library listens with a backlog of 5: a burst of webhooks (80 at once take 5 s with it) waits on
    # the kernel's retransmits. Node's own servers use 511.
    request_queue_size = 128
    daemon_threads = True


class CatcherServer:
    """Listens on `host` (127.0.0.1; for an emulator in a container, its network's gateway), a free port, in a daemon
    thread; routes posts by path. `max_body`: the largest body read, the emulator's `maxBodySize`
    (`control.limits().max_body_size`): it bounds every body the emulator takes in, so every body it posts."""

    def __init__(self, max_body: int, host: str = "127.0.0.1") -> None:
        self._http = _Server((host, 0), _Handler)
        self._routes: Dict[str, Catcher] = {}
        self._http._routes = self._routes  # type: ignore[attr-defined]
        self._http.max_body = max_body  # type: ignore[attr-defined]
        self.origin = f"http://{host}:{self._http.server_address[1]}"
        self.backlog = self._http.request_queue_size
        threading.Thread(target=self._http.serve_forever, daemon=True).start()

    def route(self, path: str, app: AppWebhook = None, secret: Optional[str] = None) -> Catcher:
        catcher = Catcher(self, path, app, secret)
        self._routes[path] = catcher
        return catcher

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()


__all__ = [
    "AppWebhook", "Catcher", "CatcherServer", "CaughtRequest", "Handler", "HandlerAnswer", "call_handler",
    "forward_to_url", "signed_by", "wsgi_handler",
]  # fmt: skip
