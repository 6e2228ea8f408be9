"""Finds the emulator a test session uses: a running one (SMS_EMULATOR_URL), or one it starts and waits for."""

import json
import os
import shlex
import signal
import subprocess
import tempfile
import time
from typing import Any, Dict, Optional

from .control import Control

DEFAULT_COMMAND = "npx --yes sms-emulator"


class EmulatorNotReady(Exception):
    """The emulator process ended, or was not ready in time; the message holds its output."""


class Emulator:
    """An emulator to drive: its origin, control API and ready-file facts; `stop()` ends it when this session started it."""

    def __init__(self, origin: str, control: Control, ready: Dict[str, Any], process: Optional[subprocess.Popen] = None):
        self.origin = origin
        self.control = control
        self.ready = ready
        self._process = process

    @property
    def live(self) -> str:
        return self.origin

    def stop(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=5)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def start(timeout: float = float(os.environ.get("SMS_EMULATOR_START_TIMEOUT", "120"))) -> Emulator:
    """SMS_EMULATOR_URL (with SMS_EMULATOR_CONTROL_TOKEN) names a running emulator; else SMS_EMULATOR_COMMAND (default
    `npx --yes sms-emulator`) starts one on a free port with a manual clock and --parent-pid, so a killed run leaves
    no emulator behind."""
    token = os.environ.get("SMS_EMULATOR_CONTROL_TOKEN") or None
    url = os.environ.get("SMS_EMULATOR_URL")
    if url:
        control = Control(url, token)
        health = control.call("GET", "/health")
        if not (isinstance(health, dict) and health.get("status") == "ok"):
            raise EmulatorNotReady(f"SMS_EMULATOR_URL={url} is not an sms-emulator: /_emulator/health answered {str(health)[:200]!r}")
        return Emulator(url.rstrip("/"), control, {"origin": url.rstrip("/")})
    directory = tempfile.mkdtemp(prefix="sms-emulator-")
    ready_file = os.path.join(directory, "ready.json")
    log_path = os.path.join(directory, "output.log")
    command = shlex.split(os.environ.get("SMS_EMULATOR_COMMAND", DEFAULT_COMMAND)) + [
        "--port", "0", "--clock", "manual", "--ready-file", ready_file, "--parent-pid", str(os.getpid()),
    ]
    with open(log_path, "wb") as log:
        # Its own process group: stop() ends npx, its shell and node together.
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + timeout
    while not os.path.exists(ready_file):
        if process.poll() is not None or time.monotonic() > deadline:
            output = open(log_path, encoding="utf-8", errors="replace").read()[-4000:]
            why = f"exited with {process.returncode}" if process.poll() is not None else f"was not ready in {timeout:g} s"
            Emulator("", Control(""), {}, process).stop()
            raise EmulatorNotReady(f"sms-emulator ({' '.join(command)}) {why}:\n{output}")
        time.sleep(0.05)
    with open(ready_file, encoding="utf-8") as file:
        ready = json.load(file)
    return Emulator(ready["origin"], Control(ready["origin"], token), ready, process)
