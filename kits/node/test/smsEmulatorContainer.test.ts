/** The container's configuration and the started container's accessors, with GenericContainer's start stubbed: no Docker needed. */

import { readFileSync } from 'node:fs';
import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import { HttpWaitStrategy } from 'testcontainers/build/wait-strategies/http-wait-strategy.js';
import { afterEach, expect, test, vi } from 'vitest';
import { SmsEmulatorContainer, type StartedSmsEmulatorContainer } from '../src/index.js';

const contract = JSON.parse(readFileSync(new URL('../../../test-vectors/kit-contract.json', import.meta.url), 'utf8'));

/** The container's settings as GenericContainer keeps them for its start. */
class Inspected extends SmsEmulatorContainer {
  settings() {
    const wait = this.waitStrategy as unknown as {
      path: string;
      port: number;
      options: { abortOnContainerExit?: boolean };
      getStartupTimeout(): number;
    };
    return {
      image: this.imageName.string,
      ports: this.exposedPorts,
      environment: this.environment,
      wait: {
        strategy: this.waitStrategy,
        path: wait.path,
        port: wait.port,
        timeoutMs: wait.getStartupTimeout(),
        abortsOnExit: wait.options.abortOnContainerExit,
      },
    };
  }
}

/** A container as the runtime would answer it: the emulator's port mapped to 49153 on 127.0.0.1. */
function fakeStart() {
  const stop = vi.fn(async () => ({}) as never);
  const started = {
    getHost: () => '127.0.0.1',
    getMappedPort: (port: number) => (port === contract.container.port ? 49153 : Number.NaN),
    getId: () => 'c0ffee',
    stop,
  } as unknown as StartedTestContainer;
  const start = vi.spyOn(GenericContainer.prototype, 'start').mockResolvedValue(started);
  // The checks of the engine and the image ask the container runtime: containerRuntime.test.ts and the suite cover them.
  const unchecked = SmsEmulatorContainer.prototype as unknown as { checkStartable(): Promise<void> };
  vi.spyOn(unchecked, 'checkStartable').mockResolvedValue();
  return { start, stop };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

test('the default image is the kit contract’s', () => {
  vi.stubEnv('SMS_EMULATOR_IMAGE', undefined);
  expect(new Inspected().settings().image).toBe(contract.container.image);
});

test('SMS_EMULATOR_IMAGE picks another image, and an empty one is ignored', () => {
  vi.stubEnv(contract.container.imageEnv, 'registry.example/team/sms-emulator:edge');
  expect(new Inspected().settings().image).toBe('registry.example/team/sms-emulator:edge');
  vi.stubEnv(contract.container.imageEnv, '');
  expect(new Inspected().settings().image).toBe(contract.container.image);
});

test('an image given to the constructor wins over SMS_EMULATOR_IMAGE', () => {
  vi.stubEnv(contract.container.imageEnv, 'registry.example/team/sms-emulator:edge');
  expect(new Inspected('localhost/sms-emulator:mine').settings().image).toBe('localhost/sms-emulator:mine');
});

test('the contract’s port is exposed and the container is ready once its health path answers over HTTP', () => {
  const { ports, wait } = new Inspected().settings();
  expect(ports).toEqual([contract.container.port]);
  expect(wait.strategy).toBeInstanceOf(HttpWaitStrategy);
  expect({ path: wait.path, port: wait.port }).toEqual({
    path: contract.container.healthPath,
    port: contract.container.port,
  });
});

test('each start sets a fresh random control token, which the started container answers', async () => {
  fakeStart();
  const container = new Inspected();
  const first = await container.start();
  const firstToken = container.settings().environment[contract.container.controlTokenEnv];
  const second = await container.start();
  expect(firstToken).toBe(first.getControlToken());
  expect(first.getControlToken()).toMatch(/^[\w-]{32}$/);
  expect(second.getControlToken()).not.toBe(first.getControlToken());
  expect(container.settings().environment[contract.container.controlTokenEnv]).toBe(second.getControlToken());
});

test('withControlToken sets the token of every start; an empty one is refused', async () => {
  fakeStart();
  const container = new Inspected().withControlToken('team-token');
  expect((await container.start()).getControlToken()).toBe('team-token');
  expect(container.settings().environment[contract.container.controlTokenEnv]).toBe('team-token');
  expect(() => new SmsEmulatorContainer().withControlToken('')).toThrow(
    /^sms-emulator-testcontainers: a control token is one or more printable ASCII .* the one given is empty\.$/,
  );
});

test('a control token an Authorization header cannot carry is refused before any start, without showing it', () => {
  for (const token of ['s3cret\nX-Other: 1', 'two words', 'pässwort', 's3cret\t']) {
    const refusal = (() => {
      try {
        new SmsEmulatorContainer().withControlToken(token);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    })();
    expect(refusal).toMatch(/^sms-emulator-testcontainers: a control token is one or more printable ASCII/);
    expect(refusal).not.toContain(token.slice(0, 4));
  }
  expect(() => new SmsEmulatorContainer().withControlToken('a~Z.0_9-+/=!')).not.toThrow();
});

test('the wait for health lasts the contract’s start timeout (120 s) by default, as in every kit', () => {
  vi.stubEnv(contract.settings.startTimeout.env, undefined);
  expect(new Inspected().settings().wait.timeoutMs).toBe(contract.settings.startTimeout.ms);
  expect(contract.settings.startTimeout.ms).toBe(120_000);
});

test('SMS_EMULATOR_START_TIMEOUT sets the wait for health, read with the kits’ one duration grammar', () => {
  for (const { text, ms } of contract.settings.durationGrammar.examples as { text: string; ms: number | null }[]) {
    vi.stubEnv(contract.settings.startTimeout.env, text);
    if (ms === null)
      expect(() => new Inspected(), text).toThrow(
        `sms-emulator: ${contract.settings.startTimeout.env}="${text}" is not a duration`,
      );
    else expect(new Inspected().settings().wait.timeoutMs, text).toBe(ms);
  }
});

test('the URLs are the mapped port on the host, with the contract’s sandbox and control paths', async () => {
  fakeStart();
  const started: StartedSmsEmulatorContainer = await new SmsEmulatorContainer().start();
  expect(started.getApiUrl()).toBe('http://127.0.0.1:49153');
  expect(started.getSandboxUrl()).toBe(`http://127.0.0.1:49153${contract.paths.base.sandbox}`);
  expect(started.getControlUrl()).toBe(`http://127.0.0.1:49153${contract.paths.control}`);
});

test('emulator() is sms-emulator’s remote handle on the container’s origin, one per container', async () => {
  fakeStart();
  const started = await new SmsEmulatorContainer().start();
  const emulator = started.emulator();
  expect(emulator.urls).toMatchObject({ origin: 'http://127.0.0.1:49153', sandbox: started.getSandboxUrl() });
  expect(typeof emulator.worlds.create).toBe('function');
  expect(started.emulator()).toBe(emulator);
});

test('stopping the started container stops the container Testcontainers started', async () => {
  const { stop } = fakeStart();
  await (await new SmsEmulatorContainer().start()).stop();
  expect(stop).toHaveBeenCalledTimes(1);
});

test('a start that fails names the image it tried, as SMS_EMULATOR_IMAGE gave it', async () => {
  fakeStart().start.mockRejectedValue(new TypeError('Request path contains unescaped characters'));
  vi.stubEnv(contract.container.imageEnv, 'Not An Image!!');
  await expect(new SmsEmulatorContainer().start()).rejects.toThrow(
    `sms-emulator-testcontainers: the container of the image "Not An Image!!:latest" (the constructor's argument, else ${contract.container.imageEnv}, else the kit contract's) did not start: Request path contains unescaped characters`,
  );
});

test('a container that exits before it is healthy fails the wait at once, with its last logs, not after the timeout', () => {
  expect(new Inspected().settings().wait.abortsOnExit).toBe(true);
});
