/** SmsEmulatorContainer: a Testcontainers GenericContainer that starts the sms-emulator image and waits until it is healthy. */

import { randomBytes } from 'node:crypto';
import { GenericContainer, Wait, getContainerRuntimeClient } from 'testcontainers';
import {
  checkControlToken,
  containerSettings,
  defaultImage,
  localRegistry,
  startTimeoutMs,
} from './containerSettings.js';
import { StartedSmsEmulatorContainer } from './startedSmsEmulatorContainer.js';

/**
 * The emulator's container: the image of the kit contract (or `SMS_EMULATOR_IMAGE`, or the one given), its port exposed
 * on a free port of the host, ready once the health path answers 200 (within `SMS_EMULATOR_START_TIMEOUT`, 120 s by
 * default, as in every kit), and a control token of its own.
 *
 * @example
 * const started = await new SmsEmulatorContainer().start();
 * const emulator = started.emulator(); // the same RemoteEmulator as sms-emulator's connect()
 * await emulator.clock.advance('5m');
 * await started.stop();
 */
export class SmsEmulatorContainer extends GenericContainer {
  private controlToken: string | undefined;

  constructor(image: string = defaultImage()) {
    super(image);
    this.withExposedPorts(containerSettings.port).withWaitStrategy(
      // An emulator that refuses its settings exits at once: say so with its last logs, not after the whole timeout.
      Wait.forHttp(containerSettings.healthPath, containerSettings.port, { abortOnContainerExit: true })
        .forStatusCode(200)
        .withStartupTimeout(startTimeoutMs()),
    );
  }

  /** The control token the emulator requires (default: a fresh random one each time the container starts). */
  withControlToken(token: string): this {
    this.controlToken = checkControlToken(token);
    return this;
  }

  override async start(): Promise<StartedSmsEmulatorContainer> {
    await this.checkStartable();
    // Anyone who can reach a mapped port could drive the emulator: every container gets a token nobody else knows.
    const token = this.controlToken ?? randomBytes(24).toString('base64url');
    this.withEnvironment({ [containerSettings.controlTokenEnv]: token });
    // Testcontainers' own errors do not say which image (a malformed one gives "Request path contains unescaped characters").
    const started = await super.start().catch((error: unknown) => {
      throw new Error(
        `sms-emulator-testcontainers: the container of the image "${this.imageName.string}" (the constructor's argument, else ${containerSettings.imageEnv}, else the kit contract's) did not start: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    });
    return new StartedSmsEmulatorContainer(started, token);
  }

  /**
   * Refuses, saying what to do, what Testcontainers would answer obscurely: no container engine where it looked ("Could
   * not find a working container runtime strategy"), and an image of the `localhost/` registry (the one `npm run image`
   * builds) that is not loaded, which no registry has (it would try a pull and fail with "no such container").
   */
  private async checkStartable(): Promise<void> {
    const client = await getContainerRuntimeClient().catch((error: unknown) => {
      throw new Error(noEngine(process.env, error), { cause: error });
    });
    if (!this.imageName.string.startsWith(localRegistry)) return;
    if (await client.image.exists(this.imageName)) return;
    throw new Error(
      `sms-emulator-testcontainers: the image ${this.imageName.string} is not loaded here, and no registry has it: build it with \`npm run image\` and load it (\`podman load -i kits/dist/image/sms-emulator-image.tar\`, or \`docker load -i …\`), or name another image with ${containerSettings.imageEnv}.`,
    );
  }
}

/** Where Testcontainers looked for a container engine and what to set, a password in DOCKER_HOST masked. */
function noEngine(env: NodeJS.ProcessEnv, error: unknown): string {
  const host = env.DOCKER_HOST;
  const where =
    host === undefined || host === ''
      ? 'at the default socket (DOCKER_HOST is not set)'
      : `at DOCKER_HOST=${host.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@')}`;
  return `sms-emulator-testcontainers: no container engine answered ${where}: start Docker, or podman's Docker-compatible API (\`podman system service\`), and set DOCKER_HOST to its socket (unix:///run/podman/podman.sock for rootful podman); see docs/container.md (${error instanceof Error ? error.message : String(error)}).`;
}
