"""Each test's world is its own: run these in parallel (pytest -n 3) and none sees another's time or messages."""

from datetime import timedelta

import pytest


@pytest.mark.parametrize("hours", range(1, 9))
def test_a_test_sees_only_its_own_time_and_messages(sms, hours):
    start = sms.now()
    sms.clock.advance(f"{hours}h")
    sent = sms.client.send("27831234567", f"Test {hours}")
    sms.wait_for(sent["id"]).to_reach("delivered")
    assert [message["message"] for message in sms.messages()] == [f"Test {hours}"]
    assert sms.client.list()["total_items"] == 1
    assert [payload["id"] for payload in sms.webhooks()] == [sent["id"], sent["id"]]
    assert sms.clock.now() - start >= timedelta(hours=hours)
    assert sms.clock.now() - start < timedelta(hours=hours, minutes=1)
