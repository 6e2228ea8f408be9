"""The kit's defaults and units are the contract's `settings` (test-vectors/kit-contract.json): the start and control
timeouts, the wait's `within`, the error prefix, and the one duration grammar every duration setting is read with; and
the image, port, health path and variables of its `container` (the Testcontainers extra)."""

import json
from pathlib import Path

import pytest

from pytest_sms_emulator import Control
from pytest_sms_emulator.emulator import START_TIMEOUT_VARIABLE, start_timeout
from pytest_sms_emulator.settings import (
    CONTAINER_ALLOWED_HOSTS_ENV,
    CONTAINER_CONTROL_TOKEN_ENV,
    CONTAINER_HEALTH_PATH,
    CONTAINER_IMAGE,
    CONTAINER_IMAGE_ENV,
    CONTAINER_PORT,
    CONTROL_TIMEOUT,
    ERROR_PREFIX,
    START_TIMEOUT,
    WAIT_WITHIN,
    duration_ms,
)
from pytest_sms_emulator.world import MessageWait

CONTRACT = json.loads((Path(__file__).resolve().parents[3] / "test-vectors" / "kit-contract.json").read_text("utf-8"))
SETTINGS = CONTRACT["settings"]
GRAMMAR = SETTINGS["durationGrammar"]


def test_the_kits_defaults_and_error_prefix_are_the_contracts():
    assert ERROR_PREFIX == SETTINGS["errorPrefix"]
    assert (START_TIMEOUT, CONTROL_TIMEOUT, WAIT_WITHIN) == (
        SETTINGS["startTimeout"]["default"], SETTINGS["controlTimeout"]["default"], SETTINGS["waitWithin"]["default"],
    )  # fmt: skip
    assert START_TIMEOUT_VARIABLE == SETTINGS["startTimeout"]["env"]


def test_the_containers_image_port_health_path_and_variables_are_the_contracts():
    container = CONTRACT["container"]
    assert (CONTAINER_IMAGE, CONTAINER_IMAGE_ENV, CONTAINER_PORT, CONTAINER_HEALTH_PATH) == (
        container["image"], container["imageEnv"], container["port"], container["healthPath"],
    )  # fmt: skip
    assert (CONTAINER_CONTROL_TOKEN_ENV, CONTAINER_ALLOWED_HOSTS_ENV) == (
        container["controlTokenEnv"], container["allowedHostsEnv"],
    )  # fmt: skip


@pytest.mark.parametrize("example", GRAMMAR["examples"], ids=lambda example: repr(example["text"]))
def test_every_duration_of_the_contract_reads_as_it_says(example):
    if example["ms"] is None:
        problem = GRAMMAR["problem"].replace("{name}", "SOME_SETTING").replace("{text}", example["text"])
        with pytest.raises(ValueError) as refused:
            duration_ms("SOME_SETTING", example["text"])
        assert str(refused.value) == problem
    else:
        assert duration_ms("SOME_SETTING", example["text"]) == example["ms"]


def test_the_start_timeout_is_read_with_the_grammar_and_defaults_to_the_contracts():
    assert start_timeout({}) == SETTINGS["startTimeout"]["ms"] / 1000
    assert start_timeout({START_TIMEOUT_VARIABLE: "2m"}) == 120
    assert start_timeout({START_TIMEOUT_VARIABLE: "120"}) == 120
    with pytest.raises(ValueError, match=r'^sms-emulator: SMS_EMULATOR_START_TIMEOUT="2x" is not a duration'):
        start_timeout({START_TIMEOUT_VARIABLE: "2x"})


def test_a_control_request_waits_the_contracts_control_timeout_by_default():
    assert Control("")._timeout == SETTINGS["controlTimeout"]["ms"] / 1000


def test_a_wait_without_within_moves_the_clock_at_most_the_contracts_wait_within():
    asked = []

    class Refusing:
        def messages_wait(self, message_id, status, within):
            asked.append(within)
            raise RuntimeError("stop here")

    class World:
        control = Refusing()

    with pytest.raises(RuntimeError):
        MessageWait(World(), "m1").to_reach("delivered")  # type: ignore[arg-type]
    assert duration_ms("within", asked[0]) == SETTINGS["waitWithin"]["ms"]
