import { defineConfig } from 'vitest/config';

// The same tests twice: against an emulator embedded in each test file, and against one emulator process that every file shares.
export default defineConfig({
  test: {
    // Files in parallel, as on a laptop; every test still has its own clock.
    maxWorkers: 3,
    projects: [
      { test: { name: 'embedded', include: ['test/**/*.test.ts'] } },
      { test: { name: 'process', include: ['test/**/*.test.ts'], globalSetup: ['test/emulatorProcess.ts'] } },
    ],
  },
});
