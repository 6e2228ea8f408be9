"""SmsEmulatorContainer against the image under a container engine (run by kits/python/container-suite.sh, under
scripts/image/with-podman.sh): it starts ready, answers on its URLs with its own control token, hands back the kit's
Emulator whose worlds get their webhooks across the container's network, keeps two worlds on one container apart, and
stops leaving no container behind. The kit's own world and vector tests run against a container by the same script
(ini `sms_emulator_container = true`)."""

import base64
import json
import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from docker.errors import NotFound

from pytest_sms_emulator import CatcherServer, SmsWorld, WorldSettings
from pytest_sms_emulator.testcontainers import SmsEmulatorContainer


def get(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


@pytest.fixture(scope="module")
def container():
    with SmsEmulatorContainer() as started:
        yield started


@pytest.fixture
def emulator(container):
    handle = container.emulator()
    yield handle
    handle.stop()


@pytest.fixture
def catchers(emulator):
    server = CatcherServer(emulator.control.limits().max_body_size, emulator.webhook_host)
    yield server
    server.close()


def test_a_container_starts_ready_answers_with_its_own_token_and_stops_leaving_nothing(capsys):
    began = time.monotonic()
    container = SmsEmulatorContainer().start()
    started = time.monotonic() - began
    try:
        assert get(container.control_url() + "/health")[0] == 200  # ready once start() returns
        assert get(container.control_url() + "/limits")[0] == 401  # the control API asks for its token
        bearer = {"Authorization": f"Bearer {container.control_token}"}
        assert get(container.control_url() + "/limits", bearer)[0] == 200
        key = {"Authorization": "Basic " + base64.b64encode(b"pk_test_sms_emulator:").decode()}
        for environment in ("live", "sandbox"):
            status, balance = get(container.api_url(environment) + "/v1/messages/balance", key)
            assert status == 200 and isinstance(balance, dict), (environment, balance)
    finally:
        wrapped = container.get_wrapped_container()
        began = time.monotonic()
        container.stop()
        stopped = time.monotonic() - began
    with pytest.raises(NotFound):
        container.get_docker_client().client.containers.get(wrapped.id)
    with capsys.disabled():
        print(f"\ncontainer start {started:.2f} s (to health 200), stop {stopped:.2f} s")


def test_a_world_on_a_container_gets_its_webhooks_across_the_containers_network(emulator, catchers):
    world = SmsWorld(emulator, catchers, "webhooks across the network", WorldSettings(balance=20))
    try:
        assert world.catcher.url.startswith(f"http://{emulator.webhook_host}:")
        sent = world.client.send("27831234567", "Across the network")
        world.wait_for(sent["id"]).to_reach("delivered")
        assert [payload["status"] for payload in world.webhooks()] == ["submitted", "delivered"]
        assert world.balance() == 19
    finally:
        world.close()


def test_two_worlds_on_one_container_see_only_their_own_time_messages_and_balances(emulator, catchers):
    first = SmsWorld(emulator, catchers, "first", WorldSettings(balance=5))
    second = SmsWorld(emulator, catchers, "second", WorldSettings(balance=9, environment="sandbox", sandbox_balance=9))
    try:
        before = second.now()
        first.clock.advance("3h")
        sent = first.client.send("27831234567", "Only the first's")
        first.wait_for(sent["id"]).to_reach("delivered")
        other = second.client.send("27839999999", "Only the second's")
        second.wait_for(other["id"]).to_reach("delivered")
        assert [message["message"] for message in first.messages()] == ["Only the first's"]
        assert [message["message"] for message in second.messages()] == ["Only the second's"]
        assert (first.balance(), second.balance()) == (4, 8)
        assert second.now() - before < timedelta(hours=1)  # the first's three hours moved only its own clock
        assert [payload["id"] for payload in first.webhooks()] == [sent["id"], sent["id"]]
        assert [payload["id"] for payload in second.webhooks()] == [other["id"], other["id"]]
    finally:
        first.close()
        second.close()
