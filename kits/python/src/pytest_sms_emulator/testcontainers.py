"""The emulator in a container, with testcontainers-python (the extra: pip install "pytest-sms-emulator[testcontainers]"):
`SmsEmulatorContainer` starts the image, waits for its health answer, gives it a control token of its own, and hands
back the kit's own `Emulator`, so each test's `sms` world is the same whether the emulator came from the carried
runtime or from a container. `sms_emulator_container = true` in the pytest ini makes the plugin's fixtures use one."""

import ipaddress
import os
import re
import secrets
from typing import Any, Dict, Mapping, Optional

from docker.errors import DockerException, ImageNotFound
from testcontainers.core.container import DockerContainer
from testcontainers.core.wait_strategies import HttpWaitStrategy

from .client import API_PATHS
from .http import shown_url
from .emulator import Emulator, connect, container_image, start_timeout
from .settings import (
    CONTAINER_ALLOWED_HOSTS_ENV,
    CONTAINER_CONTROL_TOKEN_ENV,
    CONTAINER_HEALTH_PATH,
    CONTAINER_IMAGE_ENV,
    CONTAINER_PORT,
    CONTROL_PATH,
    ERROR_PREFIX,
)

#: The repository of images built on this machine (`npm run image` tags its image so): never pulled.
LOCAL_REPOSITORY = "localhost/"


class ImageNotLoaded(Exception):
    """The image a container would start is not loaded, and is one no registry has."""


class EngineNotFound(Exception):
    """No container engine answered where the Docker client looked (DOCKER_HOST, else its default socket)."""


def engine_problem(environ: Mapping[str, str], error: Exception) -> str:
    """Why no container could start: where the Docker client looked, and what to set (the client's own error is only
    that a socket file is missing, or that the server's API version could not be read)."""
    host = environ.get("DOCKER_HOST")
    where = f"at DOCKER_HOST={shown_url(host)}" if host else "at the default socket (DOCKER_HOST is not set)"
    return (
        f"{ERROR_PREFIX}no container engine answered {where}: start Docker, or podman's Docker-compatible API "
        "(`podman system service`), and set DOCKER_HOST to its socket (unix:///run/podman/podman.sock for rootful "
        f"podman); see docs/container.md ({error})"
    )


#: How often the wait for the health answer asks (the library's default is a second; the emulator is ready in about one).
HEALTH_POLL_SECONDS = 0.1


class SmsEmulatorContainer(DockerContainer):
    """The emulator's image as a Testcontainers container, usable as a context manager.

    `image`: the image to start (default SMS_EMULATOR_IMAGE's, else the kit contract's, the one `npm run image` builds).
    `control_token`: the control token it is started with (default a fresh random one, so no two containers share one);
    printable ASCII without spaces, since it travels in an Authorization header (another is a ValueError).
    `webhook_host`: where the emulator in the container reaches this machine (default the gateway of the container's
    network, an address of this machine under Docker Engine and rootful podman on Linux): the kit's webhook catcher
    listens there. Other arguments go to DockerContainer (a network, its aliases, ...)."""

    def __init__(
        self,
        image: Optional[str] = None,
        control_token: Optional[str] = None,
        webhook_host: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        try:
            super().__init__(container_image(image), **kwargs)
        except DockerException as error:
            raise EngineNotFound(engine_problem(os.environ, error)) from error
        #: The control token the emulator in this container asks for on /_emulator.
        self.control_token: str = secrets.token_hex(16) if control_token is None else checked_token(control_token)
        self._webhook_host = webhook_host
        self.with_exposed_ports(CONTAINER_PORT)
        self.with_env(CONTAINER_CONTROL_TOKEN_ENV, self.control_token)
        self.waiting_for(
            HttpWaitStrategy(CONTAINER_PORT, CONTAINER_HEALTH_PATH)
            .for_status_code(200)
            .with_startup_timeout(start_timeout())
            .with_poll_interval(HEALTH_POLL_SECONDS)
        )

    def start(self) -> "SmsEmulatorContainer":
        """Starts the container and waits until its health path answers 200. An image of the `localhost/` repository
        (the one `npm run image` builds) that is not loaded is an error saying how to load it: no registry has it."""
        if self.image.startswith(LOCAL_REPOSITORY):
            try:
                self.get_docker_client().client.images.get(self.image)
            except ImageNotFound:
                raise ImageNotLoaded(
                    f"{ERROR_PREFIX}the image {self.image} is not loaded here, and no registry has it: build it with "
                    "`npm run image` and load it (`podman load -i kits/dist/image/sms-emulator-image.tar`, or "
                    f"`docker load -i ...`), or name another image with {CONTAINER_IMAGE_ENV}"
                ) from None
        super().start()
        return self

    def _configure(self) -> None:
        # The emulator's Host check admits localhost and IP addresses; a name it is called by must be listed: the
        # container's network aliases, and the Docker host's name when the mapped port is reached by one.
        names = list(self._network_aliases or [])
        host = self.get_docker_client().host()
        if not _is_local_or_address(host):
            names.append(host)
        if names and CONTAINER_ALLOWED_HOSTS_ENV not in self.env:
            self.with_env(CONTAINER_ALLOWED_HOSTS_ENV, ",".join(names))

    @property
    def origin(self) -> str:
        """The emulator's origin on the mapped port, such as http://127.0.0.1:41235."""
        return f"http://{self.get_container_host_ip()}:{self.get_exposed_port(CONTAINER_PORT)}"

    def api_url(self, environment: str = "live") -> str:
        """The base URL an app is configured with: the origin for the live API, origin + "/sandbox" for the sandbox."""
        if environment not in API_PATHS:
            raise ValueError(f"{ERROR_PREFIX}environment is one of {', '.join(API_PATHS)}, not {environment!r}")
        return self.origin + API_PATHS[environment][: -len(API_PATHS["live"])]

    def control_url(self) -> str:
        """The control API's base URL (origin + /_emulator); it asks for `control_token` as a Bearer token."""
        return self.origin + CONTROL_PATH

    @property
    def webhook_host(self) -> str:
        """Where the emulator in the container reaches this machine: the one given, else its network's gateway."""
        if self._webhook_host:
            return self._webhook_host
        container = self.get_wrapped_container()
        container.reload()
        return gateway(container.attrs, self._network.name if self._network else None)

    def emulator(self) -> Emulator:
        """The kit's handle on this container's emulator (its origin and control API, with this container's token),
        as SMS_EMULATOR_URL would give it: each test's world comes from it (`SmsWorld`, or the plugin's `sms`)."""
        return connect(self.origin, self.control_token, f"the container of {self.image}", webhook_host=self.webhook_host)


#: What an Authorization header carries as it is: printable ASCII without spaces.
_HEADER_SAFE = re.compile(r"[\x21-\x7e]+")


def checked_token(token: str) -> str:
    """A control token given by the user, refused before any container starts when an `Authorization: Bearer` header
    cannot carry it (empty, spaces, control or non-ASCII characters). The error never shows it: it is a secret, and
    http.client's own error, after the start, printed the header with it."""
    if not isinstance(token, str) or not _HEADER_SAFE.fullmatch(token):
        given = "is empty" if token == "" else "has characters that are not (the token is not shown)"
        raise ValueError(
            f"{ERROR_PREFIX}a control token is one or more printable ASCII characters without spaces (it is sent as "
            f'"Authorization: Bearer <token>"); the one given {given}'
        )
    return token


def gateway(inspected: Dict[str, Any], network: Optional[str] = None) -> str:
    """The gateway of a container's network (`network`, else the one it is on) from its inspect answer: the address
    of the host on that network. (Read from the inspect answer: podman's list answer has no HostConfig.)"""
    settings = inspected.get("NetworkSettings") or {}
    networks = settings.get("Networks") or {}
    chosen = networks.get(network) if network else next(iter(networks.values()), None)
    address = (chosen or {}).get("Gateway") or settings.get("Gateway")
    if not address:
        raise RuntimeError(
            f"{ERROR_PREFIX}the container's network names no gateway for its webhooks to reach this machine by: "
            "give SmsEmulatorContainer(webhook_host=...)"
        )
    return str(address)


def _is_local_or_address(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


__all__ = [
    "EngineNotFound", "HEALTH_POLL_SECONDS", "ImageNotLoaded", "LOCAL_REPOSITORY", "SmsEmulatorContainer", "checked_token",
    "engine_problem", "gateway",
]
