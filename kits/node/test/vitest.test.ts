/** The vitest globalSetup: what it provides to createSmsTest and that it stops its container, with the start stubbed. */

import type { ProvidedEmulator } from 'sms-emulator/vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import { afterEach, expect, test, vi } from 'vitest';
import { SmsEmulatorContainer } from '../src/index.js';
import { smsContainerGlobalSetup } from '../src/vitest.js';

// A container removed on an ending signal is removed by a process of its own: here only its start is seen.
vi.mock('node:child_process', () => ({ spawn: vi.fn(() => ({ unref: () => undefined })) }));

afterEach(() => vi.restoreAllMocks());

function fakeStart() {
  const stop = vi.fn(async () => ({}) as never);
  vi.spyOn(GenericContainer.prototype, 'start').mockResolvedValue({
    getHost: () => '127.0.0.1',
    getMappedPort: () => 49153,
    getId: () => 'c0ffee',
    stop,
  } as unknown as StartedTestContainer);
  // The checks of the engine and the image ask the container runtime: containerRuntime.test.ts and the suite cover them.
  const unchecked = SmsEmulatorContainer.prototype as unknown as { checkStartable(): Promise<void> };
  vi.spyOn(unchecked, 'checkStartable').mockResolvedValue();
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

test('the globalSetup has its container removed by a process of its own when SIGTERM ends the run, and listens no longer once torn down', async () => {
  const stop = fakeStart();
  const before = process.listenerCount('SIGTERM');
  const teardown = await smsContainerGlobalSetup({ webhookHost: '10.88.0.1' })({ provide: () => undefined });
  expect(process.listenerCount('SIGTERM')).toBe(before + 1);
  // A listener of the test's own keeps the signal from ending this process.
  const keepAlive = () => undefined;
  process.on('SIGTERM', keepAlive);
  try {
    process.emit('SIGTERM', 'SIGTERM');
  } finally {
    process.off('SIGTERM', keepAlive);
  }
  expect(spawn).toHaveBeenCalledTimes(1);
  const [command, args, spawnOptions] = vi.mocked(spawn).mock.calls[0] ?? [];
  expect({ command, args, detached: (spawnOptions as { detached?: boolean }).detached }).toEqual({
    command: process.execPath,
    args: [fileURLToPath(new URL('../src/removeContainer.js', import.meta.url)), 'c0ffee'],
    detached: true,
  });
  expect(process.listenerCount('SIGTERM')).toBe(before);
  const again = await smsContainerGlobalSetup({ webhookHost: '10.88.0.1' })({ provide: () => undefined });
  await again();
  expect(process.listenerCount('SIGTERM')).toBe(before);
  await teardown();
  expect(stop).toHaveBeenCalledTimes(2);
});
