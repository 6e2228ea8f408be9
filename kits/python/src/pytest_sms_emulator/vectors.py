"""The repository's shared test vectors, shipped in the wheel (``_test_vectors/``): ``signing.json``,
``schedule.json``, ``webhooks.json``, ... (each ``{"description", "cases"}``) and ``kit-contract.json``, so an app's
own signer, schedule formatting or webhook parser can be checked against the cases the emulator and every kit pass;
read from the checkout's ``test-vectors/`` when the kit is installed from a clone."""

import json
from pathlib import Path
from typing import Any

from .settings import ERROR_PREFIX

_PACKAGE = Path(__file__).resolve().parent
# The wheel's copy, then the checkout's (src/pytest_sms_emulator is kits/python/src/ of the repository there).
_FOLDERS = [_PACKAGE / "_test_vectors", *[parent / "test-vectors" for parent in _PACKAGE.parents[3:4]]]


def vector_file(name: str) -> Path:
    """Where the vectors file ``name`` is: the wheel's copy, else the checkout's."""
    for folder in _FOLDERS:
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"{ERROR_PREFIX}the kit carries no test-vectors/{name}: reinstall pytest-sms-emulator")


def read_vectors(name: str) -> Any:
    """The vectors file ``name``, parsed."""
    return json.loads(vector_file(name).read_text(encoding="utf-8"))
