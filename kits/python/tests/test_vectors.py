"""The kit's signer, schedule formatting and webhook matching against the shared test vectors (the wheel's copy, else
the checkout's)."""

from datetime import datetime

import pytest

from pytest_sms_emulator import canonical_string, find_webhook, format_schedule, read_vectors, sign


def cases(name):
    entries = read_vectors(name)["cases"]
    return pytest.mark.parametrize("case", entries, ids=[entry["name"] for entry in entries])


@cases("signing.json")
def test_signing_vector(case):
    assert canonical_string(case["fields"]) == case["canonical"]
    assert sign(case["fields"], case["secret"]) == case["signature"]


@cases("schedule.json")
def test_schedule_vector(case):
    instant = datetime.fromisoformat(case["instant"].replace("Z", "+00:00"))
    assert format_schedule(instant, case["offset"]) == case["schedule"]


@cases("webhooks.json")
def test_every_webhook_payload_is_found_by_its_own_fields(case):
    payload = case["payload"]
    others = [{"type": "sms", "id": "another", "status": "delivered", "recipient": ["27830000009"], "message": "x"}]
    found = find_webhook(
        others + [payload],
        id=payload["id"],
        type=payload["type"],
        status=payload["status"],
        recipient=payload["recipient"][0],
        text=payload["message"],
    )
    assert found is payload
