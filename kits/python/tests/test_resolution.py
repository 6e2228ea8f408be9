"""Where the emulator comes from: decision 0002's rule in order (URL, command, carried runtime, node on PATH), a
relative command resolved against the rootdir, the chosen step printed once when a run starts, one error naming all;
and the ini's `sms_emulator_container`, which names the container instead (and the extra it needs)."""

import stat
import sys
from pathlib import Path

import pytest

from pytest_sms_emulator.control import ControlError
from pytest_sms_emulator.emulator import BUNDLE_ENTRY, EmulatorNotFound, resolve, resolve_command, start
from pytest_sms_emulator.http import shown_url


def package_with_bundle(folder: Path) -> Path:
    entry = folder / "_emulator" / BUNDLE_ENTRY
    entry.parent.mkdir(parents=True)
    entry.write_text("// the carried bundle's start script\n")
    return folder


def fake_node(folder: Path, version: str) -> Path:
    """A `node` that answers --version, on a PATH of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    node = folder / "node"
    node.write_text(f"#!/bin/sh\necho {version}\n")
    node.chmod(node.stat().st_mode | stat.S_IEXEC)
    return node


def test_the_url_comes_first_then_the_command_then_the_carried_runtime_then_node_on_path(tmp_path):
    package = package_with_bundle(tmp_path / "package")
    carried = fake_node(tmp_path / "carried", "v24.19.0")
    path_node = fake_node(tmp_path / "bin", "v22.1.0")
    everything = {"SMS_EMULATOR_URL": "http://127.0.0.1:9/", "SMS_EMULATOR_COMMAND": "run-it", "PATH": str(tmp_path / "bin")}

    def step(environ, with_carried=True):
        return resolve(environ, None, package, lambda: carried if with_carried else None)

    assert step(everything).step == "url"
    assert step(everything).url == "http://127.0.0.1:9"
    no_url = {k: v for k, v in everything.items() if k != "SMS_EMULATOR_URL"}
    assert (step(no_url).step, step(no_url).command) == ("command", ["run-it"])
    only_path = {"PATH": everything["PATH"]}
    assert (step(only_path).step, step(only_path).command) == ("carried", [str(carried), str(package / "_emulator" / BUNDLE_ENTRY)])
    chosen = step(only_path, with_carried=False)
    assert (chosen.step, chosen.command) == ("path-node", [str(path_node), str(package / "_emulator" / BUNDLE_ENTRY)])
    assert "v22.1.0" in chosen.describe()


def test_a_password_in_the_url_is_masked_where_the_kit_prints_it_and_kept_where_it_connects():
    chosen = resolve({"SMS_EMULATOR_URL": "http://proxy:pw-PLANTED-1@127.0.0.1:1/"})
    assert chosen.url == "http://proxy:pw-PLANTED-1@127.0.0.1:1"
    assert chosen.describe() == (
        "sms-emulator: SMS_EMULATOR_URL=http://proxy:***@127.0.0.1:1 (a running emulator, shared by the run)"
    )
    assert "pw-PLANTED-1" not in str(chosen.found)
    with pytest.raises(ControlError) as refused:
        start(resolution=chosen)
    assert "GET http://proxy:***@127.0.0.1:1/_emulator/health got no answer" in str(refused.value)


def test_shown_url_masks_every_password_the_emulator_masks_and_nothing_else():
    assert shown_url("http://user:p@ss:w@rd@[::1]:4000/hook?to=a@b") == "http://user:***@[::1]:4000/hook?to=a@b"
    text = '"http://u:one@a.test" and ftp://v:two@b.test/x, mail me@c.test'
    assert shown_url(text) == '"http://u:***@a.test" and ftp://v:***@b.test/x, mail me@c.test'
    for kept in ("http://127.0.0.1:4000/x", "http://hooks@h/", "http://u:@h/", "http://h/p@x", "not a url: pw@host"):
        assert shown_url(kept) == kept


def test_when_nothing_works_one_error_names_every_step_and_what_it_found(tmp_path):
    fake_node(tmp_path / "bin", "v18.20.0")
    with pytest.raises(EmulatorNotFound) as failure:
        resolve({"PATH": str(tmp_path / "bin")}, None, tmp_path / "no-bundle", lambda: None)
    text = str(failure.value)
    assert "1. SMS_EMULATOR_URL" in text and "SMS_EMULATOR_URL is not set" in text
    assert "2. SMS_EMULATOR_COMMAND" in text and "SMS_EMULATOR_COMMAND is not set" in text
    assert "3. the Node runtime this kit carries" in text and "no carried bundle in" in text
    assert "4. a node 20.19.0 or newer on PATH" in text and "is Node v18.20.0, older than 20.19.0" in text
    assert "An unpinned npx is never run." in text


def test_node_on_path_needs_20_19_or_newer(tmp_path):
    package = package_with_bundle(tmp_path / "package")
    fake_node(tmp_path / "bin", "v20.18.3")
    with pytest.raises(EmulatorNotFound, match=r"v20\.18\.3, older than 20\.19\.0"):
        resolve({"PATH": str(tmp_path / "bin")}, None, package, lambda: None)
    fake_node(tmp_path / "bin", "v20.19.0")
    assert resolve({"PATH": str(tmp_path / "bin")}, None, package, lambda: None).step == "path-node"


def test_a_relative_path_in_the_command_is_resolved_against_the_rootdir(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "emulator.js").write_text("")
    words = resolve_command("node tools/emulator.js --seed ./not-a-file", tmp_path)
    assert words == ["node", str(tmp_path / "tools" / "emulator.js"), "--seed", "./not-a-file"]


def test_the_chosen_step_is_printed_once_when_the_run_starts_and_npx_is_never_run(pytester, monkeypatch):
    monkeypatch.delenv("SMS_EMULATOR_URL", raising=False)
    monkeypatch.setenv("SMS_EMULATOR_COMMAND", "node tools/emulator.js")
    (pytester.path / "tools").mkdir()
    (pytester.path / "tools" / "emulator.js").write_text("")
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    shown = [line for line in result.outlines if line.startswith("sms-emulator: ")]
    assert shown == [
        f"sms-emulator: SMS_EMULATOR_COMMAND: node {pytester.path / 'tools' / 'emulator.js'} "
        f"(relative paths against {pytester.path})"
    ]
    source = Path(__file__).resolve().parents[1] / "src" / "pytest_sms_emulator"
    assert not [path.name for path in source.glob("*.py") if "npx --yes" in path.read_text(encoding="utf-8")]


def test_the_ini_option_gives_the_command_when_the_environment_does_not(pytester, monkeypatch):
    monkeypatch.delenv("SMS_EMULATOR_URL", raising=False)
    monkeypatch.delenv("SMS_EMULATOR_COMMAND", raising=False)
    pytester.makeini("[pytest]\nsms_emulator_command = my-emulator --seed 1\n")
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert "sms-emulator: sms_emulator_command (ini): my-emulator --seed 1" in result.stdout.str()


def test_the_ini_switch_names_the_container_in_the_header_and_needs_the_extra(pytester, monkeypatch):
    pytester.makeini("[pytest]\nsms_emulator_container = true\n")
    pytester.makepyfile("def test_a_world(sms):\n    pass\n")
    monkeypatch.setenv("SMS_EMULATOR_IMAGE", "registry.example/sms-emulator:7")
    for name in [name for name in sys.modules if name == "testcontainers" or name.startswith("testcontainers.")]:
        monkeypatch.setitem(sys.modules, name, None)  # as where the extra is not installed
    monkeypatch.delitem(sys.modules, "pytest_sms_emulator.testcontainers", raising=False)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    shown = [line for line in result.outlines if line.startswith("sms-emulator: ")]
    assert shown == [
        "sms-emulator: a container of registry.example/sms-emulator:7 (sms_emulator_container), one per pytest process"
    ]
    assert 'sms_emulator_container = true needs testcontainers: pip install "pytest-sms-emulator[testcontainers]"' in (
        result.stdout.str()
    )
