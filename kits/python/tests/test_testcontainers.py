"""The Testcontainers extra without a container engine: SmsEmulatorContainer's configuration (the contract's image,
SMS_EMULATOR_IMAGE and the argument over it, the exposed port, a fresh control token, the wait on the health path),
its URLs from a host and a mapped port, the gateway its webhooks reach this machine by, and the kit's own Emulator it
hands back (a world from it). The container suite (kits/python/container_tests, run by container-suite.sh under
podman) starts the image itself; the ini switch is tested in test_resolution.py."""

import signal

import pytest

pytest.importorskip("testcontainers", reason='the extra: pip install "pytest-sms-emulator[testcontainers]"')

from docker.errors import DockerException, ImageNotFound  # noqa: E402 (after the extra is known to be installed)
from testcontainers.core.wait_strategies import HttpWaitStrategy  # noqa: E402

from pytest_sms_emulator import CatcherServer, ControlError, SmsWorld, WorldSettings, start  # noqa: E402
from pytest_sms_emulator.emulator import TOKEN_VARIABLE, start_timeout  # noqa: E402
from pytest_sms_emulator.settings import (  # noqa: E402
    CONTAINER_ALLOWED_HOSTS_ENV,
    CONTAINER_CONTROL_TOKEN_ENV,
    CONTAINER_HEALTH_PATH,
    CONTAINER_IMAGE,
    CONTAINER_IMAGE_ENV,
    CONTAINER_PORT,
)
from pytest_sms_emulator.testcontainers import (  # noqa: E402
    HEALTH_POLL_SECONDS,
    EngineNotFound,
    ImageNotLoaded,
    SmsEmulatorContainer,
    gateway,
)


class FakeImages:
    def __init__(self, loaded):
        self.loaded = loaded
        self.pulled = []

    def get(self, name):
        if name not in self.loaded:
            raise ImageNotFound(f"no such image: {name}")
        return name

    def pull(self, name):
        self.pulled.append(name)


class FakeDocker:
    """testcontainers' DockerClient without an engine: the Docker host's name, and the images loaded."""

    host_name = "127.0.0.1"
    loaded = (CONTAINER_IMAGE,)

    def __init__(self, **kwargs):
        self.client = type("Client", (), {"images": FakeImages(self.loaded)})()

    def host(self):
        return self.host_name


@pytest.fixture(autouse=True)
def no_engine(monkeypatch):
    monkeypatch.setattr("testcontainers.core.container.DockerClient", FakeDocker)
    monkeypatch.delenv(CONTAINER_IMAGE_ENV, raising=False)


def test_the_default_image_is_the_contracts_then_sms_emulator_image_then_the_argument(monkeypatch):
    assert SmsEmulatorContainer().image == CONTAINER_IMAGE == "localhost/sms-emulator:0.1.0"
    monkeypatch.setenv(CONTAINER_IMAGE_ENV, "registry.example/team/sms-emulator:7")
    assert SmsEmulatorContainer().image == "registry.example/team/sms-emulator:7"
    assert SmsEmulatorContainer("mine:1").image == "mine:1"


def test_it_exposes_the_contracts_port_and_sets_a_fresh_control_token_for_each_container():
    first, second = SmsEmulatorContainer(), SmsEmulatorContainer()
    assert first.ports == {str(CONTAINER_PORT): None}
    assert first.env[CONTAINER_CONTROL_TOKEN_ENV] == first.control_token
    assert len(first.control_token) == 32 and first.control_token != second.control_token
    given = SmsEmulatorContainer(control_token="team-token")
    assert given.control_token == given.env[CONTAINER_CONTROL_TOKEN_ENV] == "team-token"


@pytest.mark.parametrize("token", ["", "s3cret\nX-Other: 1", "two words", "pässwort", "s3cret\t"])
def test_a_control_token_a_header_cannot_carry_is_refused_before_any_start_without_showing_it(token):
    refusal = "^sms-emulator: a control token is one or more printable ASCII"
    with pytest.raises(ValueError, match=refusal) as refused:
        SmsEmulatorContainer(control_token=token)
    assert (token == "" and "is empty" in str(refused.value)) or token[:4] not in str(refused.value)
    assert SmsEmulatorContainer(control_token="a~Z.0_9-+/=!").control_token == "a~Z.0_9-+/=!"


def test_it_waits_for_200_on_the_health_path_as_long_as_the_kits_start_timeout(monkeypatch):
    monkeypatch.setenv("SMS_EMULATOR_START_TIMEOUT", "45s")
    wait = SmsEmulatorContainer()._wait_strategy
    assert isinstance(wait, HttpWaitStrategy)
    assert (wait._port, wait._path, wait._status_codes) == (CONTAINER_PORT, CONTAINER_HEALTH_PATH, {200})
    assert (wait._startup_timeout, wait._poll_interval) == (45, HEALTH_POLL_SECONDS) and start_timeout() == 45


def test_the_urls_are_the_mapped_port_on_the_docker_host(monkeypatch):
    container = SmsEmulatorContainer()
    monkeypatch.setattr(container, "get_container_host_ip", lambda: "127.0.0.1")
    monkeypatch.setattr(container, "get_exposed_port", lambda port: {CONTAINER_PORT: 41235}[port])
    assert container.origin == container.api_url() == container.api_url("live") == "http://127.0.0.1:41235"
    assert container.api_url("sandbox") == "http://127.0.0.1:41235/sandbox"
    assert container.control_url() == "http://127.0.0.1:41235/_emulator"
    with pytest.raises(ValueError, match=r"^sms-emulator: environment is one of live, sandbox, not 'staging'$"):
        container.api_url("staging")


def test_the_names_it_is_called_by_are_allowed_hosts_and_a_local_docker_host_needs_none(monkeypatch):
    local = SmsEmulatorContainer()
    local._configure()
    assert CONTAINER_ALLOWED_HOSTS_ENV not in local.env
    aliased = SmsEmulatorContainer().with_network_aliases("sms-emulator")
    monkeypatch.setattr(FakeDocker, "host_name", "docker-host.internal")
    aliased._configure()
    assert aliased.env[CONTAINER_ALLOWED_HOSTS_ENV] == "sms-emulator,docker-host.internal"
    own = SmsEmulatorContainer().with_env(CONTAINER_ALLOWED_HOSTS_ENV, "mine")
    own._configure()
    assert own.env[CONTAINER_ALLOWED_HOSTS_ENV] == "mine"


def test_an_image_of_localhost_that_is_not_loaded_is_an_error_saying_how_to_load_it_and_nothing_is_pulled():
    container = SmsEmulatorContainer("localhost/sms-emulator:9.9.9")
    with pytest.raises(ImageNotLoaded, match=r"^sms-emulator: the image localhost/sms-emulator:9.9.9 is not loaded here"):
        container.start()
    assert container.get_docker_client().client.images.pulled == []


def test_its_webhooks_reach_this_machine_at_its_networks_gateway_or_the_host_given():
    podman = {"NetworkSettings": {"Gateway": "10.88.0.1", "Networks": {"podman": {"Gateway": "10.88.0.1"}}}}
    assert gateway(podman) == "10.88.0.1"
    two = {"NetworkSettings": {"Networks": {"a": {"Gateway": "172.18.0.1"}, "b": {"Gateway": "172.19.0.1"}}}}
    assert (gateway(two), gateway(two, "b")) == ("172.18.0.1", "172.19.0.1")
    assert gateway({"NetworkSettings": {"Gateway": "172.17.0.1", "Networks": {}}}) == "172.17.0.1"
    with pytest.raises(RuntimeError, match=r"names no gateway .* give SmsEmulatorContainer\(webhook_host=\.\.\.\)"):
        gateway({"NetworkSettings": {"Networks": {"host": {"Gateway": ""}}}})
    assert SmsEmulatorContainer(webhook_host="192.0.2.7").webhook_host == "192.0.2.7"


def test_it_hands_back_the_kits_emulator_with_its_token_and_a_world_comes_from_it(monkeypatch):
    monkeypatch.setenv(TOKEN_VARIABLE, "the-containers-token")
    running = start()  # the rule's emulator, asking for a control token as a container's does
    host, port = running.origin.split("//")[1].rsplit(":", 1)

    def on_the_running_one(token):
        container = SmsEmulatorContainer(control_token=token, webhook_host="127.0.0.1")
        monkeypatch.setattr(container, "get_container_host_ip", lambda: host)
        monkeypatch.setattr(container, "get_exposed_port", lambda asked: int(port) if asked == CONTAINER_PORT else 0)
        return container.emulator()

    try:
        wrong = on_the_running_one("another-token")
        with pytest.raises(ControlError, match="CONTROL_UNAUTHORIZED"):
            wrong.control.limits()
        wrong.stop()
        emulator = on_the_running_one("the-containers-token")
        assert (emulator.origin, emulator.webhook_host) == (running.origin, "127.0.0.1")
        catchers = CatcherServer(emulator.control.limits().max_body_size, emulator.webhook_host)
        try:
            world = SmsWorld(emulator, catchers, "from a container", WorldSettings(balance=10))
            sent = world.client.send("27831234567", "From a container's world")
            world.wait_for(sent["id"]).to_reach("delivered")
            assert [payload["status"] for payload in world.webhooks()] == ["submitted", "delivered"]
            world.close()
        finally:
            catchers.close()
            emulator.stop()
    finally:
        running.stop()


def test_sigterm_ends_a_container_session_with_its_teardown_so_the_container_is_stopped(pytester):
    # The container stands in for one that started: the run is killed while a test uses it, as a CI job cancelled is.
    pytester.makeini("[pytest]\nsms_emulator_container = true\n")
    pytester.makeconftest(
        "import pytest_sms_emulator.testcontainers as module\n\n"
        "class Started:\n"
        "    def __enter__(self):\n        return self\n\n"
        "    def __exit__(self, *exc):\n        open('stopped', 'w').write('stopped')\n\n"
        "    def emulator(self):\n        return type('Emulator', (), {'stop': lambda self: None})()\n\n"
        "module.SmsEmulatorContainer = Started\n"
    )
    pytester.makepyfile(
        "import os, signal\n\ndef test_cancelled(sms_emulator):\n    os.kill(os.getpid(), signal.SIGTERM)\n"
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == 128 + signal.SIGTERM
    assert (pytester.path / "stopped").read_text() == "stopped"
    assert "sms-emulator: SIGTERM received: the session's container is stopped" in result.stdout.str()


@pytest.mark.parametrize(
    "docker_host, shown",
    [
        (None, "at the default socket (DOCKER_HOST is not set)"),
        ("tcp://ci:s3cret@engine:2375", "DOCKER_HOST=tcp://ci:***@"),
    ],
)
def test_no_container_engine_is_an_error_naming_docker_host_and_what_to_set(monkeypatch, docker_host, shown):
    def no_engine(**kwargs):
        raise DockerException("Error while fetching server API version: ('Connection aborted.', FileNotFoundError(2))")

    monkeypatch.setattr("testcontainers.core.container.DockerClient", no_engine)
    if docker_host is None:
        monkeypatch.delenv("DOCKER_HOST", raising=False)
    else:
        monkeypatch.setenv("DOCKER_HOST", docker_host)
    with pytest.raises(EngineNotFound, match="^sms-emulator: no container engine answered ") as refused:
        SmsEmulatorContainer()
    assert shown in str(refused.value) and "s3cret" not in str(refused.value)
    assert "set DOCKER_HOST to its socket (unix:///run/podman/podman.sock for rootful podman)" in str(refused.value)
