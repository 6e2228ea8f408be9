import { defineConfig } from 'vitest/config';

// The same tests twice: against an emulator embedded in each test file, and against one emulator process for every file.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'embedded', include: ['test/**/*.test.ts'] } },
      { test: { name: 'process', include: ['test/**/*.test.ts'], globalSetup: ['test/emulatorProcess.ts'] } },
    ],
  },
});
