"""A world's webhooks sent to the app's own handler (a function in the test process, a WSGI app, or a URL): the
emulator gets the app's real answer, and the kit still keeps a copy of every delivery for its assertions and waits."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pytest_sms_emulator import CaughtRequest, wsgi_handler


class App:
    """An app's webhook handler that answers 500 to its first `failures` posts."""

    def __init__(self, failures=0):
        self.failures = failures
        self.seen = []

    def __call__(self, request: CaughtRequest):
        self.seen.append(request)
        if len(self.seen) <= self.failures:
            return 500, "not yet"
        return 200, json.dumps({"ok": True}), {"Content-Type": "application/json"}


@pytest.fixture
def app():
    return App(failures=1)


@pytest.fixture
def sms_app_webhook(app):
    return app


def test_the_app_handler_answers_the_emulator_and_the_kit_keeps_every_delivery(sms, app):
    sent = sms.client.send("27831234567", "Through the app")
    sms.wait_for(sent["id"]).to_reach("delivered")
    assert [request.json["status"] for request in app.seen] == ["submitted", "submitted", "delivered"]
    assert [request.status for request in sms.catcher.received] == [500, 200, 200]
    sms.assert_webhook(id=sent["id"], status="delivered")
    submitted = [event for event in sms.webhook_log(message=sent["id"]) if event.status == "submitted"][0]
    assert [attempt.status for attempt in submitted.attempts] == [500, 200]
    assert app.seen[0].headers["x-emulator-event-id"] == app.seen[1].headers["x-emulator-event-id"]


def test_a_world_with_an_app_handler_refuses_canned_answers(sms):
    with pytest.raises(ValueError, match="the app's own handler"):
        sms.catcher.respond_with(500)


def test_a_handler_that_raises_is_a_500_to_the_emulator(sms_world, capsys):
    def broken(request):
        raise RuntimeError("the app's bug")

    world = sms_world(app_webhook=broken)
    sent = world.client.send("27831234567", "Into a bug")
    world.clock.advance("1s")
    assert [request.status for request in world.catcher.received] == [500, 500, 500, 500]
    assert "RuntimeError: the app's bug" in capsys.readouterr().err
    assert world.webhook_log(message=sent["id"])[0].state == "failed"


def test_a_wsgi_app_gets_each_delivery_at_its_path(sms_world):
    bodies = []

    def wsgi_app(environ, start_response):
        bodies.append((environ["PATH_INFO"], environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))))
        start_response("202 Accepted" if environ["PATH_INFO"] == "/hooks/sms" else "404 Not Found", [])
        return [b""]

    world = sms_world(app_webhook=wsgi_handler(wsgi_app, "/hooks/sms"))
    sent = world.client.send("27831234567", "To WSGI")
    world.clock.advance("1s")
    assert bodies[0][0] == "/hooks/sms"
    assert json.loads(bodies[0][1])["id"] == sent["id"]
    assert bodies[0][1] == world.catcher.received[0].body  # the same bytes
    assert world.catcher.received[0].status == 202


def test_deliveries_to_the_apps_url_go_unchanged_and_its_answer_comes_back(sms_world):
    got = []

    class Receiver(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 (the standard library's name)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            got.append((self.path, dict(self.headers), body))
            self.send_response(200 if len(got) > 1 else 503)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        world = sms_world(app_webhook=f"http://127.0.0.1:{server.server_port}/app/sms?team=a")
        sent = world.client.send("27831234567", "To the URL")
        world.wait_for(sent["id"]).to_reach("delivered")
    finally:
        server.shutdown()
        server.server_close()
    assert got[0][0] == "/app/sms?team=a"
    assert got[0][2] == world.catcher.received[0].body
    headers = [{name.lower(): value for name, value in given[1].items()} for given in got]
    assert (headers[0]["x-emulator-attempt"], headers[1]["x-emulator-attempt"]) == ("1", "2")
    assert [request.status for request in world.catcher.received] == [503, 200, 200]
    world.assert_webhook(id=sent["id"], status="delivered")


def test_the_apps_handler_attached_after_the_world_exists_gets_the_deliveries_and_the_kit_keeps_a_copy(sms_world):
    world = sms_world()  # the app is built from the world's key and URL, so it comes after the world
    app = App(failures=1)
    world.forward_to(app)
    sent = world.client.send("27831234567", "To the app made after the world")
    world.wait_for(sent["id"], "delivered")
    assert [request.json["status"] for request in app.seen] == ["submitted", "submitted", "delivered"]
    assert [request.status for request in world.catcher.received] == [500, 200, 200]
    world.assert_webhook(id=sent["id"], status="delivered")


def test_a_wait_fails_at_once_naming_the_answers_when_the_apps_handler_refused_every_try(sms_world):
    world = sms_world(app_webhook=lambda request: (401, "bad signature"))
    sent = world.client.send("27831234567", "Never heard of")
    with pytest.raises(AssertionError, match=r"refused its notification at every try.*401"):
        world.wait_for(sent["id"], "delivered")
