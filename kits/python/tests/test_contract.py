"""The kit against the one kit contract, test-vectors/kit-contract.json (written from the emulator's code): every
control operation offered under its Python name, typed and documented; the same version, paths, start flags,
resolution rule and its error, timeline names and world answer."""

import dataclasses
import inspect
import json
import re
import typing
from pathlib import Path

import pytest

import pytest_sms_emulator
from pytest_sms_emulator import Control, World
from pytest_sms_emulator.client import API_PATHS
from pytest_sms_emulator.control import CONTROL_PATH
from pytest_sms_emulator.emulator import (
    BUNDLE_ENTRY,
    COMMAND_VARIABLE,
    MINIMUM_NODE,
    NOT_FOUND,
    ORDER,
    START_TIMEOUT_VARIABLE,
    TOKEN_VARIABLE,
    URL_VARIABLE,
    start_args,
)
from pytest_sms_emulator.plugin import TIMELINE_HASH_LENGTH, TIMELINE_MAX_LENGTH, timeline_name

ROOT = Path(__file__).resolve().parents[3]
CONTRACT = json.loads((ROOT / "test-vectors" / "kit-contract.json").read_text(encoding="utf-8"))
OPERATIONS = CONTRACT["operations"]


@pytest.mark.parametrize("operation", OPERATIONS, ids=[operation["id"] for operation in OPERATIONS])
def test_every_control_operation_is_a_typed_documented_method_of_control(operation):
    name = operation["names"]["python"]
    assert hasattr(Control, name), f"Control has no {name} for {operation['method']} {operation['path']}"
    method = getattr(Control, name)
    assert callable(method)
    assert (method.__doc__ or "").strip(), f"Control.{name} has no docstring"
    signature = inspect.signature(method)
    assert signature.return_annotation is not inspect.Signature.empty, f"Control.{name} declares no answer type"
    given = list(signature.parameters)[1:]
    for index, param in enumerate(operation["params"]):
        assert given[index] == param, f"Control.{name} takes {given}, the path's {operation['params']} first"
    for parameter in signature.parameters.values():
        if parameter.name != "self" and parameter.kind is not inspect.Parameter.VAR_KEYWORD:
            assert parameter.annotation is not inspect.Parameter.empty, f"Control.{name}({parameter.name}) is untyped"


def test_the_kit_has_the_version_of_the_emulator():
    pyproject = (ROOT / "kits" / "python" / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^version = "([^"]+)"$', pyproject, re.M).group(1) == CONTRACT["version"]
    assert pytest_sms_emulator.__version__ == CONTRACT["version"]


def test_the_kit_uses_the_contracts_paths():
    assert CONTROL_PATH == CONTRACT["paths"]["control"]
    assert API_PATHS == CONTRACT["paths"]["api"]


def test_the_kit_starts_the_emulator_with_the_contracts_flags_and_bundle_entry():
    expected = [word.replace("{readyFile}", "/r/ready.json").replace("{parentPid}", "42") for word in CONTRACT["start"]["args"]]
    assert start_args("/r/ready.json", 42) == expected
    assert BUNDLE_ENTRY == CONTRACT["start"]["bundleEntry"]


def test_the_kit_resolves_by_the_contracts_rule_and_fails_with_its_error():
    rule = CONTRACT["resolution"]
    assert list(ORDER) == rule["order"]
    assert (URL_VARIABLE, TOKEN_VARIABLE, COMMAND_VARIABLE, START_TIMEOUT_VARIABLE) == (
        rule["env"]["url"], rule["env"]["token"], rule["env"]["command"], rule["env"]["startTimeout"],
    )  # fmt: skip
    assert ".".join(map(str, MINIMUM_NODE)) == rule["minimumNodeVersion"]
    assert MINIMUM_NODE[0] == rule["minimumNode"]
    assert NOT_FOUND == rule["notFound"]


@pytest.mark.parametrize("example", CONTRACT["timeline"]["examples"], ids=lambda example: example["file"][-40:])
def test_timeline_file_names_follow_the_contracts_rule(example):
    assert timeline_name(example["test"]) == example["file"]
    assert (TIMELINE_MAX_LENGTH, TIMELINE_HASH_LENGTH) == (CONTRACT["timeline"]["maxLength"], CONTRACT["timeline"]["hashLength"])


def test_the_world_answer_has_a_field_for_every_property_of_the_contract():
    def names(kind):
        fields = [field for field in dataclasses.fields(kind) if field.name != "raw"]  # raw: the answer as parsed
        return {field.metadata.get("json", field.name) for field in fields}

    answer = CONTRACT["world"]["answer"]["properties"]
    assert set(answer) == names(World)
    hints = typing.get_type_hints(World)
    assert set(answer["clock"]["properties"]) == names(hints["clock"])
    assert set(answer["account"]["properties"]) == names(hints["account"])
