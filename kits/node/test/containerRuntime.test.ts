/** What start() says when Testcontainers finds no container engine: where it looked and what to set, no password shown. */

import { afterEach, expect, test, vi } from 'vitest';
import { SmsEmulatorContainer } from '../src/index.js';

// Testcontainers as it answers on a machine with no engine where it looks.
vi.mock('testcontainers', async (original) => ({
  ...(await original<typeof import('testcontainers')>()),
  getContainerRuntimeClient: vi.fn(async () => {
    throw new Error('Could not find a working container runtime strategy');
  }),
}));

afterEach(() => vi.unstubAllEnvs());

test('no container engine is an error naming DOCKER_HOST and what to set, when DOCKER_HOST is not set', async () => {
  vi.stubEnv('DOCKER_HOST', undefined);
  await expect(new SmsEmulatorContainer().start()).rejects.toThrow(
    "sms-emulator-testcontainers: no container engine answered at the default socket (DOCKER_HOST is not set): start Docker, or podman's Docker-compatible API (`podman system service`), and set DOCKER_HOST to its socket (unix:///run/podman/podman.sock for rootful podman); see docs/container.md (Could not find a working container runtime strategy).",
  );
});

test('no container engine at DOCKER_HOST is an error naming it, its password masked', async () => {
  vi.stubEnv('DOCKER_HOST', 'tcp://ci:s3cret@engine.example:2375');
  const refusal = await new SmsEmulatorContainer('registry.example/sms:1')
    .start()
    .catch((error: Error) => error.message);
  expect(refusal).toContain(
    'no container engine answered at DOCKER_HOST=tcp://ci:***@engine.example:2375: start Docker',
  );
  expect(refusal).not.toContain('s3cret');
});
