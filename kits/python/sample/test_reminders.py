"""The reminder service tested with pytest-sms-emulator: the world's webhooks reach the app's own handler (in process,
or at its URL), with the world's own signing secret, and the kit still asserts on every delivery."""

from datetime import datetime, timedelta, timezone

import pytest
from pytest_sms_emulator import format_schedule


def test_a_reminder_reaches_the_app_handler_and_the_kit_sees_it_too(sms, app):
    assert sms.signing_secret == "the-reminder-service-secret"
    message_id = app.remind("27831234567", "10:00", "booking-17")
    sms.wait_for(message_id).to_reach("delivered")
    assert app.statuses[message_id] == ["submitted", "delivered"]  # the app's handler got both reports
    sms.assert_webhook(id=message_id, status="delivered")  # and the kit kept its copy
    assert [request.status for request in sms.catcher.received] == [200, 200]  # the app's own answers


def test_the_emulator_gets_the_apps_real_answer_and_retries_it(sms, app):
    app.busy = True
    message_id = app.remind("27831234567", "11:00", "booking-18")
    sms.clock.advance(timedelta(seconds=1))  # submitted: the app answers 503 to every try
    app.busy = False
    sms.wait_for(message_id).to_reach("delivered")
    submitted = [event for event in sms.webhook_log(message=message_id) if event.status == "submitted"][0]
    assert [attempt.status for attempt in submitted.attempts] == [503, 503, 503, 503]
    assert submitted.state == "failed"
    assert app.statuses[message_id] == ["delivered"]


@pytest.mark.sms(start_time=datetime(2026, 12, 1, 7, 0, tzinfo=timezone.utc), balance=3)
def test_a_world_has_its_own_start_time_and_balance(sms, app):
    assert sms.now() == datetime(2026, 12, 1, 7, 0, tzinfo=timezone.utc)
    assert sms.balance() == 3
    scheduled = sms.client.schedule("27831234567", "Tomorrow", schedule=sms.now() + timedelta(hours=2))
    assert sms.control.messages_get(scheduled["id"]).schedule == format_schedule(sms.now() + timedelta(hours=2))


@pytest.mark.sms(environment="sandbox", sandbox_balance=7)
def test_a_sandbox_world(sms, app):
    message_id = app.remind("27831234567", "12:00", "booking-19")  # the app's base URL is the sandbox's
    sms.wait_for(message_id).to_reach("delivered")
    assert sms.control.messages_get(message_id).environment == "sandbox"
    assert sms.balance() == 6
    assert app.statuses[message_id] == ["submitted", "delivered"]
