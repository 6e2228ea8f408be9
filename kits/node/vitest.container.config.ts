import { defineConfig } from 'vitest/config';

// The module's suite against the image, run by container-suite.sh under scripts/image/with-podman.sh: one container for
// every file (the built globalSetup, as a user's project loads it), a world per test.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['test/container/*.test.ts'],
    globalSetup: ['./test/container/timedGlobalSetup.ts'],
    // Starting a second container, in module.test.ts, takes a few seconds on a small machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
