/** The module's own globalSetup (the built one, as a user's project loads it), with the container's start and stop times printed. */

import type { ProvidedEmulator } from 'sms-emulator/vitest';
import setup from '../../dist/vitest.js';

export default async function timedSetup(project: { provide(key: 'smsEmulator', value: ProvidedEmulator): void }) {
  const startedAt = performance.now();
  const teardown = await setup(project);
  console.error(`globalSetup: container started in ${Math.round(performance.now() - startedAt)} ms`);
  return async () => {
    const stoppedAt = performance.now();
    await teardown();
    console.error(`globalSetup: container stopped in ${Math.round(performance.now() - stoppedAt)} ms`);
  };
}
