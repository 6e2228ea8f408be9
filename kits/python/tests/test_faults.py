"""The kit's own faults, each fixed and proven: a control request on a connection the emulator closed is not lost, the
catcher's listen backlog, no temp folder left after a session, timelines under pytest's base temp named per run."""

import os
import re
import select
import socket
import socketserver
import threading
from pathlib import Path

import pytest

from pytest_sms_emulator import Control, SmsApiError, SmsClient, SmsWorld, start
from pytest_sms_emulator.catcher import _Handler, _Server


def test_a_world_made_after_the_emulator_closed_the_idle_connection_is_made(sms_emulator, sms_catchers):
    SmsWorld(sms_emulator, sms_catchers, "before the idle time").close()
    kept = sms_emulator.control._connections.current()
    assert kept is not None and kept.sock is not None
    # Idle past the emulator's keep-alive timeout (5 s, not an option): the emulator closes the connection, which reads
    # as ready (its end of file) once it has.
    readable, _, _ = select.select([kept.sock], [], [], 30)
    assert readable, "the emulator did not close the idle connection"
    world = SmsWorld(sms_emulator, sms_catchers, "after the idle time")
    try:
        assert world.clock.id
    finally:
        world.close()


class _AnswersOnceThenCloses(socketserver.BaseRequestHandler):
    """Answers a connection's first request with keep-alive, then closes on the second without a byte: what a server
    that closes an idle connection just as a request arrives looks like to the client."""

    def handle(self) -> None:
        self.server.connections += 1  # type: ignore[attr-defined]
        stream = self.request.makefile("rb")
        for answered in (True, False):
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                line = stream.readline()
                if not line:
                    return
                head += line
            length = re.search(rb"(?i)content-length: *(\d+)", head)
            stream.read(int(length.group(1)) if length else 0)
            self.server.requests += 1  # type: ignore[attr-defined]
            if not answered:
                return
            body = b'{"status": "ok", "balance": 5}'
            self.request.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive\r\n"
                + b"Content-Length: %d\r\n\r\n" % len(body) + body
            )


@pytest.fixture
def closing_server():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _AnswersOnceThenCloses)
    server.daemon_threads = True
    server.connections = 0  # type: ignore[attr-defined]
    server.requests = 0  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_control_request_lost_on_a_reused_connection_is_sent_once_more_on_a_new_one(closing_server):
    control = Control(f"http://127.0.0.1:{closing_server.server_address[1]}/control-retry")
    try:
        assert control.health().status == "ok"
        assert control.health().status == "ok"
        assert (closing_server.connections, closing_server.requests) == (2, 3)
    finally:
        control.close()


def test_an_api_request_lost_on_a_reused_connection_reaches_the_test_and_is_not_sent_again(closing_server):
    # The signing client never repeats a request: a network fault a test set on its account must reach the test.
    client = SmsClient(f"http://127.0.0.1:{closing_server.server_address[1]}/client-no-retry", "pk_test_x", "secret")
    assert client.balance() == 5
    with pytest.raises(SmsApiError) as failure:
        client.balance()
    assert failure.value.code == "NETWORK_ERROR"
    assert (closing_server.connections, closing_server.requests) == (1, 2)


def test_the_catcher_holds_128_connections_waiting_to_be_accepted():
    # Nothing accepts on this server: connections wait in its listen backlog. With the standard library's 5, the
    # kernel completes 6 and drops the rest's handshakes; a burst of webhooks then waits on retransmits.
    server = _Server(("127.0.0.1", 0), _Handler)
    clients = []
    try:
        for _ in range(100):
            client = socket.socket()
            client.setblocking(False)
            client.connect_ex(server.server_address)
            clients.append(client)
        waiting = list(clients)
        connected = 0
        while waiting:
            _, writable, _ = select.select([], waiting, [], 3)
            if not writable:
                break
            for client in writable:
                waiting.remove(client)
                connected += client.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
        assert connected == 100
    finally:
        for client in clients:
            client.close()
        server.server_close()


def test_a_started_emulator_leaves_no_folder_behind(monkeypatch, tmp_path):
    if os.environ.get("SMS_EMULATOR_URL"):
        pytest.skip("the run shares a running emulator: this test starts none")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    emulator = start()
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith("sms-emulator-")]
    emulator.stop()
    assert list(tmp_path.iterdir()) == []


def test_a_session_leaves_nothing_in_the_temp_folder(pytester, monkeypatch, tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    pytester.makepyfile("def test_sends(sms):\n    sms.client.send('27831234567', 'Hi')\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert list(scratch.iterdir()) == []


def test_timelines_of_failing_tests_go_under_each_runs_base_temp_folder(pytester):
    pytester.makepyfile(
        test_orders="""
        import pytest

        @pytest.mark.parametrize("number", ["27830000001"])
        def test_outcome(sms, number):
            sms.client.send(number, "Your order shipped")
            assert False, "fails on purpose"
        """
    )
    pages = []
    for _ in range(2):
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
        result.assert_outcomes(failed=1)
        pages.append(Path(re.search(r"timeline of this test's account: (\S+\.html)", result.stdout.str()).group(1)))
    assert pages[0] != pages[1]
    for page in pages:
        assert page.name == "sms-emulator-timeline-test_orders.py_test_outcome_27830000001_.html"
        assert page.parent.name == "sms-emulator-timelines"
        assert page.parent.parent.name.startswith("runpytest-")  # pytester's base temp folder of that run
        assert "to 27830000001" in page.read_text(encoding="utf-8")
