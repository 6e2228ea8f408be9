"""The pytest plugin (entry point pytest11 `sms_emulator`): where the emulator comes from (printed in the run's header),
the `sms_emulator` session fixture (a container of its own with the ini's `sms_emulator_container = true`), the `sms`
world of each test with its settings as overridable fixtures, the timeline report of a failing test, written under
pytest's base temp folder, and the credit budgets of a test (`@pytest.mark.sms_budget`) and of the run
(`--sms-suite-budget`, ini `sms_suite_budget`)."""

import contextlib
import hashlib
import os
import re
import signal
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import pytest

from .catcher import AppWebhook, CatcherServer
from .control import ControlError, Scenario
from .cost_checks import over_budget, plural
from .emulator import (
    COMMAND_VARIABLE,
    Emulator,
    EmulatorNotFound,
    EmulatorNotReady,
    Resolution,
    container_image,
    resolve,
    start,
)
from .schedule import Instant
from .settings import CONTAINER_IMAGE_ENV, ERROR_PREFIX
from .world import SmsWorld, WorldSettings

_world_key = pytest.StashKey[SmsWorld]()
_resolution_key = pytest.StashKey[Optional[Resolution]]()
_problem_key = pytest.StashKey[Optional[str]]()
_timelines_key = pytest.StashKey[Path]()
_suite_key = pytest.StashKey["SuiteBudget"]()

#: The folder of pytest's base temp folder that holds the timelines of failing tests.
TIMELINES = "sms-emulator-timelines"
#: The longest timeline file name (the contract's `timeline.maxLength`).
TIMELINE_MAX_LENGTH = 100
#: Hex digits of the id's SHA-256 in a shortened timeline name (the contract's `timeline.hashLength`).
TIMELINE_HASH_LENGTH = 8


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "sms_emulator_command",
        f"the command that starts the emulator when {COMMAND_VARIABLE} is not set (relative paths against the rootdir)",
        default="",
    )
    parser.addini(
        "sms_emulator_container",
        "true: the emulator runs in a container (Testcontainers; pip install \"pytest-sms-emulator[testcontainers]\"), "
        f"one per pytest process, of {CONTAINER_IMAGE_ENV}'s image or the kit's; the rule's steps are not tried",
        type="bool",
        default=False,
    )
    budget = "the most credits the run's `sms` worlds may spend in all; over it the run fails naming the top spenders"
    parser.addini("sms_suite_budget", f"{budget} (default: no budget)", default="")
    parser.getgroup("sms-emulator").addoption(
        "--sms-suite-budget", type=int, default=None, metavar="CREDITS", help=f"{budget} (over the ini's sms_suite_budget)"
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "sms(**settings): this test's world settings (signing_secret, webhook_signing_secret, start_time, balance, sandbox_balance, "
        "environment, scopes, scenario, app_webhook), over the sms_* fixtures",
    )
    config.addinivalue_line(
        "markers",
        "sms_budget(credits): the test fails when its `sms` world spent more than `credits`, naming the top spenders",
    )
    budget = _suite_budget(config)
    if budget is not None:
        suite = SuiteBudget(budget)
        config.stash[_suite_key] = suite
        config.pluginmanager.register(suite, "sms-emulator-suite-budget")


def _suite_budget(config: pytest.Config) -> Optional[int]:
    """The run's budget in credits: --sms-suite-budget, else the ini's sms_suite_budget, else none."""
    given = config.getoption("sms_suite_budget")
    if given is None:
        text = str(config.getini("sms_suite_budget") or "").strip()
        if not text:
            return None
        if not text.isdigit():
            raise pytest.UsageError(f"sms_suite_budget is a whole number of credits, not {text!r}")
        given = int(text)
    if given < 0:
        raise pytest.UsageError(f"--sms-suite-budget is a whole number of credits, not {given}")
    return given


def _resolve(config: pytest.Config) -> Optional[Resolution]:
    """The rule applied once per process; a failure is kept (and raised by the fixture) rather than stopping pytest."""
    if _resolution_key in config.stash:
        return config.stash[_resolution_key]
    environ = dict(os.environ)
    ini_command = str(config.getini("sms_emulator_command") or "")
    if ini_command and not environ.get(COMMAND_VARIABLE):
        environ[COMMAND_VARIABLE] = ini_command
    else:
        ini_command = ""
    try:
        chosen: Optional[Resolution] = resolve(environ, Path(str(config.rootpath)))
        if chosen.step == "command" and environ.get(COMMAND_VARIABLE) == ini_command and ini_command:
            # Say where the command came from: the ini file, not the environment.
            said = chosen.found["command"].replace(f"{COMMAND_VARIABLE}:", "sms_emulator_command (ini):", 1)
            chosen = Resolution(chosen.step, chosen.url, chosen.command, {**chosen.found, "command": said})
        config.stash[_problem_key] = None
    except EmulatorNotFound as error:
        chosen = None
        config.stash[_problem_key] = str(error)
    config.stash[_resolution_key] = chosen
    return chosen


def _in_container(config: pytest.Config) -> bool:
    """Does the ini say the emulator runs in a container (`sms_emulator_container = true`)?"""
    return bool(config.getini("sms_emulator_container"))


def pytest_report_header(config: pytest.Config) -> List[str]:
    """The rule's chosen step, or the container, printed once when the run starts (by the controller under
    pytest-xdist)."""
    if _in_container(config):
        return [f"sms-emulator: a container of {container_image()} (sms_emulator_container), one per pytest process"]
    chosen = _resolve(config)
    if chosen is None:
        return [config.stash[_problem_key] or "sms-emulator: no emulator"]
    return [chosen.describe()]


@pytest.fixture(scope="session")
def sms_emulator(pytestconfig: pytest.Config) -> Iterator[Emulator]:
    """The emulator of this session (under pytest-xdist: of this worker), found by the rule: SMS_EMULATOR_URL's, or one
    started here (stopped, and its folder removed, when the session ends); with `sms_emulator_container = true`, a
    container of its own (stopped and removed when the session ends, also when SIGTERM or SIGHUP ends it)."""
    if _in_container(pytestconfig):
        yield from _container_emulator()
        return
    chosen = _resolve(pytestconfig)
    if chosen is None:
        raise EmulatorNotFound(pytestconfig.stash[_problem_key] or "sms-emulator: no emulator")
    emulator = start(resolution=chosen)
    try:
        yield emulator
    finally:
        emulator.stop()


def _container_emulator() -> Iterator[Emulator]:
    try:
        from .testcontainers import SmsEmulatorContainer
    except ImportError as error:
        raise EmulatorNotReady(
            f"{ERROR_PREFIX}sms_emulator_container = true needs testcontainers: "
            f'pip install "pytest-sms-emulator[testcontainers]" ({error})'
        ) from error
    with SmsEmulatorContainer() as container, ended_by_termination():
        emulator = container.emulator()
        try:
            yield emulator
        finally:
            emulator.stop()


#: The signals a CI runner or a closed terminal ends a run with; Ctrl-C (KeyboardInterrupt) already tears down.
ENDING_SIGNALS = ("SIGTERM", "SIGHUP")


@contextlib.contextmanager
def ended_by_termination() -> Iterator[None]:
    """While it is entered, SIGTERM and SIGHUP end the run as pytest.exit does (exit status 128 + the signal's
    number) instead of killing the process at once, so the session's fixtures are torn down and the container is
    stopped: with the reaper off (as under podman) nothing else would stop it. A handler set by someone else, or a
    thread other than the main one (which cannot set one), is left alone."""
    replaced: Dict[signal.Signals, Any] = {}

    def on_signal(number: int, _frame: Any) -> None:
        name = signal.Signals(number).name
        pytest.exit(f"{ERROR_PREFIX}{name} received: the session's container is stopped", returncode=128 + number)

    if threading.current_thread() is threading.main_thread():
        for name in ENDING_SIGNALS:
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) == signal.SIG_DFL:
                replaced[number] = signal.signal(number, on_signal)
    try:
        yield
    finally:
        for number, previous in replaced.items():
            signal.signal(number, previous)


@pytest.fixture(scope="session")
def sms_catchers(sms_emulator: Emulator) -> Iterator[CatcherServer]:
    """One webhook receiver for the session, where the emulator reaches this process (its `webhook_host`); each test's
    world gets a route of its own on it. It reads no body larger than the emulator's own largest (its maxBodySize)."""
    server = CatcherServer(sms_emulator.control.limits().max_body_size, sms_emulator.webhook_host)
    yield server
    server.close()


@pytest.fixture
def sms_signing_secret() -> Optional[str]:
    """The world's signing secret (None: a drawn one). Override this fixture to give the app's own."""
    return None


@pytest.fixture
def sms_webhook_signing_secret() -> Optional[str]:
    """The secret the world's webhooks are signed with (Webhook-Signature; None: a drawn one). Override this fixture to
    give the one the app verifies with."""
    return None


@pytest.fixture
def sms_start_time() -> Optional[Instant]:
    """When the world's clock starts: an aware datetime or ISO text (None: the emulator's now)."""
    return None


@pytest.fixture
def sms_balance() -> Optional[int]:
    """The world's live balance in credits (None: the emulator's default)."""
    return None


@pytest.fixture
def sms_sandbox_balance() -> Optional[int]:
    """The world's sandbox balance in credits (None: the emulator's default)."""
    return None


@pytest.fixture
def sms_environment() -> str:
    """The API the world's client and `base_url` use: "live" or "sandbox"."""
    return "live"


@pytest.fixture
def sms_scopes() -> Optional[Sequence[str]]:
    """The scopes of the world's API key (None: all of them)."""
    return None


@pytest.fixture
def sms_scenario() -> Optional[Scenario]:
    """The world's own scenario (rules, replies, faults) from its start: a dict or YAML/JSON text (None: none)."""
    return None


@pytest.fixture
def sms_app_webhook() -> AppWebhook:
    """The app's own webhook handler: its URL, or a function called with each delivery (see `wsgi_handler` for a WSGI
    app). None: the kit answers 200 itself. Either way the kit keeps a copy of each delivery."""
    return None


@pytest.fixture
def sms_world_settings(
    request: pytest.FixtureRequest,
    sms_signing_secret: Optional[str],
    sms_webhook_signing_secret: Optional[str],
    sms_start_time: Optional[Instant],
    sms_balance: Optional[int],
    sms_sandbox_balance: Optional[int],
    sms_environment: str,
    sms_scopes: Optional[Sequence[str]],
    sms_scenario: Optional[Scenario],
    sms_app_webhook: AppWebhook,
) -> WorldSettings:
    """The `sms` world's settings: the sms_* fixtures, then a test's `@pytest.mark.sms(...)` over them."""
    given: dict = dict(
        signing_secret=sms_signing_secret,
        webhook_signing_secret=sms_webhook_signing_secret,
        start_time=sms_start_time,
        balance=sms_balance,
        sandbox_balance=sms_sandbox_balance,
        environment=sms_environment,
        scopes=sms_scopes,
        scenario=sms_scenario,
        app_webhook=sms_app_webhook,
    )
    for marker in reversed(list(request.node.iter_markers("sms"))):
        unknown = set(marker.kwargs) - set(given)
        if unknown or marker.args:
            raise TypeError(f"@pytest.mark.sms takes {', '.join(sorted(given))} by name, not {sorted(unknown) or marker.args}")
        given.update(marker.kwargs)
    return WorldSettings(**given)


@pytest.fixture
def sms(
    request: pytest.FixtureRequest,
    sms_emulator: Emulator,
    sms_catchers: CatcherServer,
    sms_world_settings: WorldSettings,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[SmsWorld]:
    """This test's world: its account on its own test clock, a signing client, a webhook route; deleted after it."""
    world = SmsWorld(sms_emulator, sms_catchers, request.node.nodeid, sms_world_settings)
    request.node.stash[_world_key] = world
    request.node.stash[_timelines_key] = tmp_path_factory.getbasetemp() / TIMELINES
    try:
        yield world
    finally:
        world.close()


@pytest.fixture
def sms_world(request: pytest.FixtureRequest, sms_emulator: Emulator, sms_catchers: CatcherServer) -> Iterator[Callable[..., SmsWorld]]:
    """Makes more worlds in one test (each its own account and clock): `sms_world(balance=5, app_webhook=url)`; each
    is deleted after the test."""
    made: List[SmsWorld] = []

    def make(**settings: Any) -> SmsWorld:
        world = SmsWorld(sms_emulator, sms_catchers, f"{request.node.nodeid} #{len(made) + 2}", WorldSettings(**settings))
        made.append(world)
        return world

    try:
        yield make
    finally:
        for world in made:
            world.close()


def timeline_name(nodeid: str) -> str:
    """A test's timeline file name (the contract's `timeline.rule`): sms-emulator-timeline-<id>.html, the node id with
    every run of characters other than A-Z a-z 0-9 _ . - as one `_`. A name longer than TIMELINE_MAX_LENGTH keeps the
    test's own name (after the last `::` or `/` outside brackets) whole, a short hash of the whole id before it (two
    long ids never share a name) and as much of the id's front as fits: <front>-<hash>-<name>."""
    prefix, suffix = "sms-emulator-timeline-", ".html"
    room = TIMELINE_MAX_LENGTH - len(prefix) - len(suffix)
    whole = _safe_name(nodeid)
    if len(whole) <= room:
        return prefix + whole + suffix
    digest = hashlib.sha256(nodeid.encode("utf-8")).hexdigest()[:TIMELINE_HASH_LENGTH]
    start = _test_name_start(nodeid)
    name = _safe_name(nodeid[start:])[: room - len(digest) - 1]
    front = _safe_name(nodeid[:start])[: max(0, room - len(digest) - 2 - len(name))]
    return prefix + (front + "-" if front else "") + digest + "-" + name + suffix


def _safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def _test_name_start(nodeid: str) -> int:
    """Where the test's own name starts: after the last `::` or `/` outside square brackets (a parameter may hold
    either)."""
    depth = start = 0
    for index, char in enumerate(nodeid):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif depth == 0 and char == "/":
            start = index + 1
        elif depth == 0 and nodeid.startswith("::", index):
            start = index + 2
    return start


#: The user properties a test's report carries its spend in (its credits, and its costliest message's line), so the
#: run's budget is judged where the reports meet (the controller under pytest-xdist) and a JUnit XML report shows them.
CREDITS_PROPERTY = "sms_emulator_credits"
COSTLIEST_PROPERTY = "sms_emulator_costliest"


class SuiteBudget:
    """The run's budget: each test's spend, read from its report, and the run failed at its end when they exceed it."""

    def __init__(self, credits: int):
        self.credits = credits
        self.spent: Dict[str, Dict[str, Any]] = {}
        self.failure: Optional[str] = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        properties = dict(report.user_properties)
        if CREDITS_PROPERTY in properties:
            self.spent[report.nodeid] = {"credits": properties[CREDITS_PROPERTY], "line": properties.get(COSTLIEST_PROPERTY)}

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(session.config, "workerinput"):
            return  # a pytest-xdist worker: the controller judges the whole run
        total = sum(spend["credits"] for spend in self.spent.values())
        if total <= self.credits:
            return
        ranked = sorted(self.spent.items(), key=lambda entry: -entry[1]["credits"])[:5]
        lines = "".join(
            f"\n  - {nodeid}: {plural(spend['credits'], 'credit')}"
            + (f"; its costliest message: {spend['line']}" if spend["line"] else "")
            for nodeid, spend in ranked
        )
        self.failure = (
            f"expected the run to cost at most {plural(self.credits, 'credit')} (sms_suite_budget); it spent "
            f"{plural(total, 'credit')} in {plural(len(self.spent), 'test')}. Top spenders:{lines}"
        )
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.failure is not None:
            terminalreporter.section("sms-emulator suite budget", red=True)
            terminalreporter.line(self.failure, red=True)


def _judge_spend(item: pytest.Item, world: SmsWorld, report: pytest.TestReport) -> Optional[str]:
    """A test's spend, carried in its report for the run's budget; and why a passed test fails its sms_budget marker
    (naming the top spenders), or None. The spend is read only when either budget is set."""
    marker = item.get_closest_marker("sms_budget")
    suite = _suite_key in item.config.stash
    if marker is None and not suite:
        return None
    try:
        spend = world.spend()
    except ControlError as error:
        if error.code == "CONTROL_NOT_FOUND":
            return None  # the test deleted its world's clock itself, or reset the emulator: nothing is left to judge
        raise
    if suite:
        report.user_properties.append((CREDITS_PROPERTY, spend.credits))
        report.user_properties.append((COSTLIEST_PROPERTY, spend.top[0].line if spend.top else None))
    if marker is None or not report.passed:
        return None
    credits = marker.args[0] if len(marker.args) == 1 and not marker.kwargs else None
    # A bool is an int to Python, and a negative, fractional or quoted budget could never be met or compared.
    if type(credits) is not int or credits < 0:
        return (
            "@pytest.mark.sms_budget takes a whole number of credits from 0, as sms_budget(3), "
            f"not {marker.args} {marker.kwargs}"
        )
    failure = over_budget(spend, credits, "this test")
    return None if failure is None else f"{failure}\n(@pytest.mark.sms_budget({credits}))"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    world = item.stash.get(_world_key, None)
    if world is None or report.when != "call":
        return
    try:
        failure = _judge_spend(item, world, report)
    except Exception as error:  # a budget that cannot be judged fails the test rather than the run
        failure = f"sms-emulator: the test's budget could not be judged: {error}"
    if failure is not None and report.passed:
        report.outcome = "failed"
        report.longrepr = failure
    elif failure is not None:
        report.sections.append(("sms-emulator budget", failure))
    if not report.failed:
        return
    # The account still exists here (its clock is deleted at teardown): its timeline goes in the failure output. Under
    # pytest's base temp folder: one per run (pytest-N, the last three kept), so runs do not overwrite each other.
    try:
        folder = item.stash[_timelines_key]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / timeline_name(item.nodeid)
        path.write_text(world.timeline_html(), encoding="utf-8")
        report.sections.append(("sms-emulator timeline", f"the emulator's timeline of this test's account: {path}"))
    except Exception as error:  # the report must never hide the test's own failure
        report.sections.append(("sms-emulator timeline", f"the timeline could not be written: {error}"))
