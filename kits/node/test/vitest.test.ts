/** The vitest globalSetup: what it provides to createSmsTest and that it stops its container, with the start stubbed. */

import type { ProvidedEmulator } from 'sms-emulator/vitest';
import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import { afterEach, expect, test, vi } from 'vitest';
import { SmsEmulatorContainer } from '../src/index.js';
import { smsContainerGlobalSetup } from '../src/vitest.js';

afterEach(() => vi.restoreAllMocks());

function fakeStart() {
  const stop = vi.fn(async () => ({}) as never);
  vi.spyOn(GenericContainer.prototype, 'start').mockResolvedValue({
    getHost: () => '127.0.0.1',
    getMappedPort: () => 49153,
    getId: () => 'c0ffee',
    stop,
  } as unknown as StartedTestContainer);
  // The check that a localhost/ image is loaded asks the container runtime: the suite against the image covers it.
  const unchecked = SmsEmulatorContainer.prototype as unknown as { refuseMissingLocalImage(): Promise<void> };
  vi.spyOn(unchecked, 'refuseMissingLocalImage').mockResolvedValue();
  return stop;
}

test('the globalSetup provides the container’s origin, its token, no emulator options and the webhook host, as smsGlobalSetup’s value', async () => {
  const stop = fakeStart();
  const provided: ProvidedEmulator[] = [];
  const container = new SmsEmulatorContainer().withControlToken('suite-token');
  const teardown = await smsContainerGlobalSetup({ container, webhookHost: '10.88.0.1' })({
    provide: (_key, value) => provided.push(value),
  });
  expect(provided).toEqual([
    { origin: 'http://127.0.0.1:49153', controlToken: 'suite-token', options: {}, webhookHost: '10.88.0.1' },
  ]);
  expect(stop).not.toHaveBeenCalled();
  await teardown();
  expect(stop).toHaveBeenCalledTimes(1);
});

test('the globalSetup stops the container it started when it cannot provide it', async () => {
  const stop = fakeStart();
  const setup = smsContainerGlobalSetup({ webhookHost: '10.88.0.1' });
  await expect(
    setup({
      provide: () => {
        throw new Error('no project to provide to');
      },
    }),
  ).rejects.toThrow('no project to provide to');
  expect(stop).toHaveBeenCalledTimes(1);
});
