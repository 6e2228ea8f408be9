/** StartedSmsEmulatorContainer: a running emulator container, with its URLs, its control token and the emulator handle. */

import { type RemoteEmulator, connect } from 'sms-emulator';
import { AbstractStartedContainer, type StartedTestContainer, getContainerRuntimeClient } from 'testcontainers';
import { containerSettings, emulatorPaths } from './containerSettings.js';

export class StartedSmsEmulatorContainer extends AbstractStartedContainer {
  private handle: RemoteEmulator | undefined;

  constructor(
    started: StartedTestContainer,
    private readonly controlToken: string,
  ) {
    super(started);
  }

  /** The emulator's origin on the host, the live API's base URL: `http://<host>:<mapped port>`. */
  getApiUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(containerSettings.port)}`;
  }

  /** The sandbox API's base URL. */
  getSandboxUrl(): string {
    return `${this.getApiUrl()}${emulatorPaths.sandbox}`;
  }

  /** The control API's base URL (every call needs `Authorization: Bearer <getControlToken()>`). */
  getControlUrl(): string {
    return `${this.getApiUrl()}${emulatorPaths.control}`;
  }

  /** The token the emulator's control API requires. */
  getControlToken(): string {
    return this.controlToken;
  }

  /** The emulator's control handle, as sms-emulator's `connect` gives it (one per container): what createSmsTest uses too. */
  emulator(): RemoteEmulator {
    this.handle ??= connect(this.getApiUrl(), { controlToken: this.controlToken });
    return this.handle;
  }

  /**
   * The address of the host on the container's network (its gateway): where a server on the host, a webhook receiver,
   * is reached from inside the container. Rootful podman and Docker on Linux; Docker Desktop has none to bind to.
   */
  async getHostAddress(): Promise<string> {
    const client = await getContainerRuntimeClient();
    const inspected = await client.container.inspect(client.container.getById(this.getId()));
    const gateway = Object.values(inspected.NetworkSettings.Networks ?? {})
      .map((network) => network.Gateway)
      .find((address) => address !== undefined && address !== '');
    if (gateway === undefined)
      throw new Error(
        `sms-emulator-testcontainers: the container ${this.getId()} has no network gateway (networks: ${this.getNetworkNames().join(', ') || 'none'}); name the host's address on its network yourself (webhookHost).`,
      );
    return gateway;
  }
}
