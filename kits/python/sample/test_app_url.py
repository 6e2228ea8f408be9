"""The reminder service's webhook handler at its own URL, as it runs in production: the kit forwards each delivery
there unchanged (method, body, headers) and answers the emulator with what the app answered."""

import threading
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pytest


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def sms_app_webhook(reminders):
    """This module's worlds post to the app's URL: the app served on a port of its own."""
    server = make_server("127.0.0.1", 0, reminders.webhook, handler_class=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/sms/status"
    server.shutdown()
    server.server_close()


def test_webhooks_reach_the_apps_url_and_the_kit_keeps_a_copy(sms, app):
    message_id = app.remind("27831234567", "13:00", "booking-20")
    sms.wait_for(message_id).to_reach("delivered")
    assert app.statuses[message_id] == ["submitted", "delivered"]
    delivered = sms.assert_webhook(id=message_id, status="delivered")
    assert delivered["client_reference"] == "booking-20"
    assert sms.catcher.received[-1].headers["x-emulator-attempt"] == "1"


def test_an_app_that_answers_503_gets_the_delivery_again(sms, app):
    app.busy = True
    message_id = app.remind("27831234567", "14:00", "booking-21")
    sms.clock.advance("1s")
    assert [request.status for request in sms.catcher.received] == [503, 503, 503, 503]
