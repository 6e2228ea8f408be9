"""An incident's delivery log becomes a scenario (`sms-emulator parity scenario`) that a test's world reproduces."""

import subprocess

import pytest

# Receipts as a provider's export shows them: a duplicated delivery, and a failure reported six hours late.
LOG = """id,recipient,status,time,received
m1,27831234567,submitted,2026-11-21T10:00:01Z,2026-11-21T10:00:01Z
m1,27831234567,delivered,2026-11-21T10:00:05Z,2026-11-21T10:00:05Z
m1,27831234567,delivered,2026-11-21T10:00:05Z,2026-11-21T10:00:05Z
m2,27831234569,submitted,2026-11-21T10:00:01Z,2026-11-21T10:00:01Z
m2,27831234569,undelivered,2026-11-21T10:00:30Z,2026-11-21T16:00:30Z
"""


def statuses(sms, message_id):
    return [request.json["status"] for request in sms.catcher.received if request.json["id"] == message_id]


def test_a_delivery_log_becomes_a_scenario_the_world_reproduces_in_order_at_the_same_virtual_times(sms, tmp_path):
    log = tmp_path / "incident.csv"
    log.write_text(LOG)
    scenario = tmp_path / "incident.yaml"
    command = sms.emulator.resolution.command if sms.emulator.resolution is not None else None
    if not command:
        pytest.skip("runs the emulator's CLI, which a run sharing SMS_EMULATOR_URL's emulator does not have")
    subprocess.run(command + ["parity", "scenario", str(log), "--out", str(scenario)], check=True, timeout=120)
    sms.scenario(scenario.read_text())
    duplicated = sms.client.send("27831234567", "Your code is 1234")
    late = sms.client.send("27831234569", "Your code is 1234")
    sms.clock.advance("4s")
    assert statuses(sms, duplicated["id"]) == ["submitted"]
    sms.clock.advance("1s")
    assert statuses(sms, duplicated["id"]) == ["submitted", "delivered", "delivered"]
    sms.clock.advance("1m")
    # The failure happened at 30 s but its receipt is held, as the incident's arrived six hours late.
    assert statuses(sms, late["id"]) == ["submitted"]
    assert sms.client.get(late["id"])["status"] == "undelivered"
    sms.clock.advance("6h")
    assert statuses(sms, late["id"]) == ["submitted", "undelivered"]
