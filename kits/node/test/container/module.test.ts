/** A container of its own, started and stopped here: its token, URLs and handle against the real image. */

import { type RemoteEmulator, connect } from 'sms-emulator';
import { expect, test } from 'vitest';
import { SmsEmulatorContainer } from '../../src/index.js';

test('a started container answers on its URLs, its control API wants its token, and it stops', async () => {
  const startedAt = performance.now();
  const started = await new SmsEmulatorContainer().withControlToken('module-suite').start();
  const startMs = performance.now() - startedAt;
  try {
    const health = await fetch(`${started.getControlUrl()}/health`);
    expect(health.status).toBe(200);
    const withoutToken = await fetch(`${started.getControlUrl()}/accounts`);
    expect(withoutToken.status).toBe(401);
    const balance = await fetch(`${started.getSandboxUrl()}/v1/messages/balance`, {
      headers: { authorization: `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}` },
    });
    expect(balance.status).toBe(200);
    const emulator: RemoteEmulator = started.emulator();
    await expect(emulator.accounts.get('pk_test_sms_emulator')).resolves.toMatchObject({
      apiKey: 'pk_test_sms_emulator',
    });
    await expect(connect(started.getApiUrl()).accounts.list()).rejects.toThrow();
  } finally {
    const stoppedAt = performance.now();
    await started.stop();
    console.error(
      `module.test: container started in ${Math.round(startMs)} ms, stopped in ${Math.round(performance.now() - stoppedAt)} ms`,
    );
  }
});

test('a localhost/ image that is not loaded is refused with how to load it, and nothing is pulled', async () => {
  // scripts/image/with-podman.sh, which runs this suite, fails the run on any pull: the refusal comes before one.
  await expect(new SmsEmulatorContainer('localhost/sms-emulator:0.0.0-never-built').start()).rejects.toThrow(
    'sms-emulator-testcontainers: the image localhost/sms-emulator:0.0.0-never-built is not loaded here, and no registry has it: build it with `npm run image` and load it',
  );
});

test('an emulator that refuses its settings fails the start with its own reason, not the start timeout', async () => {
  const refusing = new SmsEmulatorContainer().withEnvironment({ SMS_EMULATOR_CLOCK: 'sometimes' });
  const failure = await refusing.start().then(
    async (started) => {
      await started.stop();
      return 'started';
    },
    (error: Error) => error.message,
  );
  expect(failure).toContain('Container exited during HTTP healthCheck');
  expect(failure).toContain('SMS_EMULATOR_CLOCK');
});
