"""The control operations through their typed methods: dataclass answers, durations as timedelta and instants as
datetime beside text, a message's schedule comparing with format_schedule, run_until_idle with a limit, and
receiver_check."""

from datetime import datetime, timedelta, timezone

import pytest

from pytest_sms_emulator import (
    Account,
    ControlMessage,
    JournalEntry,
    OptOut,
    ReceiverReport,
    TestClock,
    WebhookEvent,
    format_schedule,
    sign,
)


def test_clock_moves_take_timedelta_and_datetime_and_answer_the_test_clock(sms):
    start = sms.now()
    moved = sms.clock.advance(timedelta(minutes=5))
    assert isinstance(moved, TestClock)
    assert moved.instant == start + timedelta(minutes=5)
    moved = sms.clock.set(start + timedelta(hours=1))
    assert moved.instant == sms.now() == start + timedelta(hours=1)
    assert sms.control.clocks_get(sms.clock.id).accounts == [sms.api_key]


def test_run_until_idle_stops_at_its_limit_then_runs_the_rest(sms):
    at = sms.now() + timedelta(hours=2)
    scheduled = sms.client.schedule("27831234567", "Later", schedule=at)
    stopped = sms.clock.run_until_idle(limit=timedelta(minutes=30))
    assert (stopped.run.stopped_at, stopped.run.idle) == ("limit", False)
    assert sms.client.get(scheduled["id"])["status"] == "scheduled"
    done = sms.clock.run_until_idle()
    assert done.run.idle and done.run.stopped_at is None and done.run.fired > 0
    assert sms.client.get(scheduled["id"])["status"] == "delivered"


def test_a_messages_schedule_compares_with_format_schedule(sms):
    at = sms.now() + timedelta(minutes=40, seconds=30)
    scheduled = sms.client.schedule("27831234567", "At a minute", schedule=at)
    message = sms.control.messages_get(scheduled["id"])
    assert isinstance(message, ControlMessage)
    assert message.raw["schedule"].count(":") == 3  # the API's text has seconds
    assert message.schedule == format_schedule(at) == format_schedule(scheduled["schedule"])
    assert message.scheduled_at == datetime.fromisoformat(format_schedule(at))


def test_a_wait_takes_a_timedelta_and_answers_the_message_and_its_clock(sms):
    sent = sms.client.send("27831234567", "Waited")
    answer = sms.control.messages_wait(sent["id"], "delivered", within=timedelta(minutes=10))
    assert answer.message.status == "delivered"
    assert answer.clock.id == sms.clock.id
    assert [leg.status for leg in answer.message.legs] == ["delivered"]


def test_replies_opt_outs_and_the_webhook_log_are_typed(sms):
    sent = sms.client.send("27831234567", "Reply YES")
    sms.wait_for(sent["id"]).to_reach("delivered")
    reply = sms.reply(sent["id"], "YES")
    assert (reply.type, reply.message, reply.in_reply_to) == ("sms-reply", "YES", sent["id"])
    assert [item.id for item in sms.control.replies_list(account=sms.api_key).items] == [reply.id]
    sms.assert_webhook(type="sms-reply", text="YES")
    opted = sms.opt_out("27830000001")
    assert opted == OptOut(sms.api_key, "live", "27830000001", True)
    assert sms.control.opt_outs_list(account=sms.api_key).items == ["27830000001"]
    assert not sms.control.opt_outs_remove("27830000001", account=sms.api_key).opted_out
    events = sms.webhook_log(message=sent["id"])
    assert all(isinstance(event, WebhookEvent) for event in events)
    assert [event.state for event in events] == ["delivered", "delivered"]
    again = sms.control.webhooks_redeliver(events[0].id)
    assert len(again.attempts) == len(events[0].attempts) + 1
    assert sms.control.webhooks_get(events[0].id).attempts[-1].ok


def test_the_journal_accounts_signing_and_state_operations_are_typed(sms):
    sms.client.send("27831234567", "Journaled")
    entries = sms.requests(method="POST")
    assert isinstance(entries[0], JournalEntry) and entries[0].status == 201
    assert sms.control.requests_count(account=sms.api_key) == 1
    updated = sms.control.accounts_update(sms.api_key, live={"add_balance": 10})
    assert isinstance(updated, Account) and updated.live.balance == sms.balance()
    signed = sms.control.sign({"recipient": ["27831234567"], "message": "Hi"}, account=sms.api_key)
    assert signed.signature == sign({"recipient": ["27831234567"], "message": "Hi"}, sms.signing_secret)
    assert sms.control.health().status == "ok"
    assert sms.control.limits().batch_limit >= 100
    assert "rate-limited" in [scenario.name for scenario in sms.control.scenario_bundled().scenarios]
    assert 0 <= sms.control.webhooks_chaos().duplicate_rate <= 1
    assert sms.clock.id in [clock.id for clock in sms.control.clocks_list(limit=1000).items]


@pytest.mark.sms(scopes=["send", "read"], balance=2, start_time="2026-12-24T09:00:00+02:00")
def test_a_worlds_scopes_balance_and_start_come_from_the_sms_marker(sms):
    assert sms.account.scopes == ["send", "read"]
    assert sms.balance() == 2
    assert sms.now() == datetime(2026, 12, 24, 7, 0, tzinfo=timezone.utc)


def test_receiver_check_scores_a_receiver(sms):
    report = sms.control.receiver_check(
        sms.catcher.url, only=["statuses"], receiver_timeout=timedelta(seconds=2), signing_secret=sms.webhook_signing_secret
    )
    assert isinstance(report, ReceiverReport)
    assert report.url == sms.catcher.url
    assert [check.name for check in report.checks] == ["statuses"]
    assert report.checks[0].passed and report.passed
    assert all(answer.status == 200 for answer in report.checks[0].answers)
    # The world's own check signs as the world's deliveries are signed, so the kit's catcher takes its posts.
    assert sms.check_receiver(sms.catcher.url, only=["statuses"], receiver_timeout="2s").passed
    assert sms.forged_webhooks() == []
