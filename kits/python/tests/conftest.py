"""The kit's own tests: pytester for the tests that run a user's suite, and a relative SMS_EMULATOR_COMMAND made
absolute for those runs (they run in a temp folder, their own rootdir)."""

import os
import shlex

import pytest

from pytest_sms_emulator.emulator import COMMAND_VARIABLE, resolve_command

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _command_for_inner_runs(monkeypatch: pytest.MonkeyPatch, pytestconfig: pytest.Config) -> None:
    command = os.environ.get(COMMAND_VARIABLE)
    if command:
        monkeypatch.setenv(COMMAND_VARIABLE, shlex.join(resolve_command(command, pytestconfig.rootpath)))
