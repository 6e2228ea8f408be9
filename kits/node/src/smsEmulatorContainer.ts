/** SmsEmulatorContainer: a Testcontainers GenericContainer that starts the sms-emulator image and waits until it is healthy. */

import { randomBytes } from 'node:crypto';
import { GenericContainer, Wait } from 'testcontainers';
import { containerSettings, defaultImage } from './containerSettings.js';
import { StartedSmsEmulatorContainer } from './startedSmsEmulatorContainer.js';

/**
 * The emulator's container: the image of the kit contract (or `SMS_EMULATOR_IMAGE`, or the one given), its port exposed
 * on a free port of the host, ready once the health path answers 200, and a control token of its own.
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
      Wait.forHttp(containerSettings.healthPath, containerSettings.port).forStatusCode(200),
    );
  }

  /** The control token the emulator requires (default: a fresh random one each time the container starts). */
  withControlToken(token: string): this {
    if (token === '') throw new Error('sms-emulator-testcontainers: withControlToken needs a token that is not empty.');
    this.controlToken = token;
    return this;
  }

  override async start(): Promise<StartedSmsEmulatorContainer> {
    // Anyone who can reach a mapped port could drive the emulator: every container gets a token nobody else knows.
    const token = this.controlToken ?? randomBytes(24).toString('base64url');
    this.withEnvironment({ [containerSettings.controlTokenEnv]: token });
    return new StartedSmsEmulatorContainer(await super.start(), token);
  }
}
