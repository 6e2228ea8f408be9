"""The kit's own faults, each fixed and proven: a control request on a connection the emulator closed is not lost, the
catcher's listen backlog, no temp folder left after a session (nor after a SIGKILLed one, by the next), timelines under pytest's base temp named per run."""

import os
import re
import select
import signal
import socket
import socketserver
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pytest_sms_emulator import Control, SmsApiError, SmsClient, SmsWorld, start
from pytest_sms_emulator.catcher import _Handler, _Server
from pytest_sms_emulator.emulator import TEMP_PREFIX, sweep_temp_folders


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


def _gone_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    return ended.pid


def test_a_temp_folder_naming_a_gone_process_is_swept_and_a_live_ones_kept(tmp_path):
    gone = tmp_path / f"{TEMP_PREFIX}{_gone_pid()}-abc"
    live = tmp_path / f"{TEMP_PREFIX}{os.getppid()}-def"
    other = tmp_path / "sms-emulator-someone-else"
    for folder in (gone, live, other):
        folder.mkdir()
        (folder / "output.log").write_text("log")
    assert sweep_temp_folders(str(tmp_path)) == [str(gone)]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([live.name, other.name])


def test_the_temp_folder_a_sigkilled_run_leaves_is_swept_by_the_next_run(pytester, tmp_path):
    if os.environ.get("SMS_EMULATOR_URL"):
        pytest.skip("the run shares a running emulator: it starts none, so leaves no folder")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    pytester.makepyfile(
        "import sys\n"
        "def test_blocks(sms):\n"
        "    print('STARTED', flush=True)\n"
        "    sys.stdin.readline()\n"  # holds the run until it is killed
    )
    environ = {**os.environ, "TMPDIR": str(scratch)}
    command = [sys.executable, "-m", "pytest", "-s", "-p", "no:cacheprovider", "-p", "no:xdist"]
    killed = subprocess.Popen(
        command, cwd=pytester.path, env=environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        for line in killed.stdout:  # type: ignore[union-attr]
            if b"STARTED" in line:
                break
        left = [path.name for path in scratch.iterdir()]
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait()
    finally:
        if killed.poll() is None:
            killed.kill()
        killed.stdout.close()  # type: ignore[union-attr]
        killed.stdin.close()  # type: ignore[union-attr]
    assert [name for name in left if name.startswith(TEMP_PREFIX)] == [path.name for path in scratch.iterdir()]
    assert len(left) == 1
    pytester.makepyfile("def test_blocks(sms):\n    assert sms.clock.id\n")
    finished = subprocess.run(command, cwd=pytester.path, env=environ, stdin=subprocess.DEVNULL, capture_output=True)
    assert finished.returncode == 0, finished.stdout.decode()
    assert list(scratch.iterdir()) == []
