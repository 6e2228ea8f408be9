"""The pytest plugin (entry point pytest11): the `sms_emulator` session fixture, the `sms` world of each test, and the
timeline report of a failing test in its output."""

import os
import re
import tempfile
from typing import Iterator

import pytest

from .catcher import CatcherServer
from .emulator import Emulator, start
from .world import SmsWorld

_world_key = pytest.StashKey[SmsWorld]()


@pytest.fixture(scope="session")
def sms_emulator() -> Iterator[Emulator]:
    """The emulator of this session (under pytest-xdist: of this worker): SMS_EMULATOR_URL's, or one started here."""
    emulator = start()
    yield emulator
    emulator.stop()


@pytest.fixture(scope="session")
def sms_catchers() -> Iterator[CatcherServer]:
    """One webhook receiver for the session; each test gets a route of its own on it."""
    server = CatcherServer()
    yield server
    server.close()


@pytest.fixture
def sms(request: pytest.FixtureRequest, sms_emulator: Emulator, sms_catchers: CatcherServer) -> Iterator[SmsWorld]:
    """This test's world: its account on its own test clock, a signing client, a webhook route; deleted after it."""
    world = SmsWorld(sms_emulator, sms_catchers, request.node.nodeid)
    request.node.stash[_world_key] = world
    yield world
    world.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    world = item.stash.get(_world_key, None)
    if world is None or report.when != "call" or not report.failed:
        return
    # The account still exists here (its clock is deleted at teardown): its timeline goes in the failure output.
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", item.nodeid)[-120:]
    path = os.path.join(tempfile.gettempdir(), f"sms-emulator-timeline-{name}.html")
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(world.report_html())
        report.sections.append(("sms-emulator timeline", f"the emulator's timeline of this test's account: {path}"))
    except Exception as error:  # the report must never hide the test's own failure
        report.sections.append(("sms-emulator timeline", f"the timeline could not be written: {error}"))
