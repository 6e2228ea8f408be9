"""The `sms` world through the user's own path: a real emulator process, its control API, a real webhook socket."""

from datetime import datetime, timedelta

import pytest

from pytest_sms_emulator import EmulatorNotReady, SmsApiError, start


def test_a_scheduled_send_goes_out_when_the_test_moves_its_clock(sms):
    scheduled = sms.client.schedule("27831234567", "Your table is ready", schedule=sms.now() + timedelta(minutes=20))
    assert scheduled["status"] == "scheduled"
    at = datetime.fromisoformat(scheduled["schedule"])
    sms.clock.set(at - timedelta(seconds=1))
    assert sms.client.get(scheduled["id"])["status"] == "scheduled"
    sms.clock.set(at)
    assert sms.client.get(scheduled["id"])["status"] != "scheduled"
    sms.wait_for(scheduled["id"]).to_reach("delivered")
    sms.assert_webhook(id=scheduled["id"], status="delivered")
    assert sms.now() >= at


def test_a_webhook_answered_500_is_sent_again_and_then_received(sms):
    sms.catcher.respond_with([500, 200])
    sent = sms.client.send("27831234567", "Twice")
    sms.wait_for(sent["id"]).to_reach("delivered")
    tries = [request for request in sms.catcher.received if request.json["status"] == "submitted"]
    assert len(tries) == 2
    assert tries[0].headers["x-emulator-event-id"] == tries[1].headers["x-emulator-event-id"]
    assert [request.headers["x-emulator-attempt"] for request in tries] == ["1", "2"]
    sms.assert_webhook(id=sent["id"], status="delivered")


def test_a_network_fault_is_a_clear_error_and_the_next_send_works(sms):
    sms.scenario({"faults": [{"match": {"operation": "send"}, "network": "reset", "count": 1}]})
    with pytest.raises(SmsApiError) as failure:
        sms.client.send("27831234567", "Lost")
    assert failure.value.code == "NETWORK_ERROR"
    assert failure.value.status == 0
    assert sms.client.send("27831234567", "Through")["status"] == "pending"


def test_a_rate_limit_is_cleared_by_moving_the_clock_by_retry_after(sms):
    sms.use_bundled_scenario("rate-limited")
    for _ in range(5):
        sms.client.send("27831234567", "Within the limit")
    with pytest.raises(SmsApiError) as limited:
        sms.client.send("27831234567", "Over it")
    assert limited.value.code == "TOO_MANY_REQUESTS"
    assert limited.value.retry_after is not None
    sms.clock.advance(f"{limited.value.retry_after}s")
    assert sms.client.send("27831234567", "Allowed again")["status"] == "pending"


def test_errors_carry_the_code_status_and_description(sms):
    with pytest.raises(SmsApiError) as failure:
        sms.client.send("0831234567", "Bad number")
    assert (failure.value.code, failure.value.status) == ("INVALID_RECIPIENT_ENTRY", 400)
    assert "0831234567" in failure.value.description


def test_assertions_name_what_did_happen(sms):
    sent = sms.client.send("27831234567", "Hello", client_reference="order-9")
    sms.assert_sent(to="27831234567", text="Hello", client_reference="order-9")
    with pytest.raises(AssertionError, match=r"pending to 27831234567: 'Hello'"):
        sms.assert_sent(to="27830000000")
    with pytest.raises(AssertionError, match=r"no webhook matches"):
        sms.assert_webhook(id=sent["id"], status="delivered")


def test_a_wait_that_cannot_succeed_fails_with_the_history(sms):
    sent = sms.client.send("27831234567", "Never undelivered")
    with pytest.raises(AssertionError, match=r"(?s)did not reach \"undelivered\".*history"):
        sms.wait_for(sent["id"]).to_reach("undelivered")


def test_an_emulator_that_cannot_start_is_a_clear_error_with_its_output(monkeypatch):
    monkeypatch.delenv("SMS_EMULATOR_URL", raising=False)
    monkeypatch.setenv("SMS_EMULATOR_COMMAND", "sh -c 'echo no-such-emulator >&2; exit 3' sh")
    with pytest.raises(EmulatorNotReady, match=r"exited with 3:\n.*no-such-emulator"):
        start(timeout=20)


def test_an_address_that_is_not_an_emulator_is_a_clear_error(monkeypatch):
    import http.server
    import threading

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html>my app</html>")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("SMS_EMULATOR_URL", f"http://127.0.0.1:{server.server_address[1]}")
        with pytest.raises(EmulatorNotReady, match=r"is not an sms-emulator: /_emulator/health answered '<html>my app</html>'"):
            start()
    finally:
        server.shutdown()


def test_a_message_is_found_by_its_client_reference(sms):
    sms.client.send("27831234567", "First order", client_reference="order-1")
    wanted = sms.client.send("27831234567", "Second order", client_reference="order-2")
    found = sms.message_by_reference("order-2")
    assert (found.id, found.message, found.client_reference) == (wanted["id"], "Second order", "order-2")
    with pytest.raises(AssertionError, match=r"no message of this world has client_reference='order-3'.*'order-1', 'order-2'"):
        sms.message_by_reference("order-3")


def test_another_worlds_message_is_not_found_by_its_reference(sms, sms_world):
    other = sms_world()
    other.client.send("27831234567", "Elsewhere", client_reference="shared-ref")
    with pytest.raises(AssertionError, match="its messages have none"):
        sms.message_by_reference("shared-ref")


def test_the_worlds_messages_take_the_control_lists_filters(sms):
    sms.client.send("27831234567", "To one", client_reference="a")
    sms.client.send("27839999999", "To another", client_reference="b")
    assert [message["message"] for message in sms.messages(recipient="27839999999")] == ["To another"]
    assert [message.client_reference for message in sms.control_messages(client_reference="a")] == ["a"]
    assert len(sms.messages()) == 2
