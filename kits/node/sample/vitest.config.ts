import { defineConfig } from 'vitest/config';

// One line chooses the emulator: test/emulatorProcess.ts starts the emulator sms-emulator carries, as a process;
// 'sms-emulator-testcontainers/vitest' starts its container instead. The tests are the same.
export default defineConfig({
  test: {
    globalSetup: ['test/emulatorProcess.ts'],
  },
});
