import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the built bin, which `npm test` builds first (pretest).
    testTimeout: 20_000,
  },
});
