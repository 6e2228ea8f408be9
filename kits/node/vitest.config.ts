import { defineConfig } from 'vitest/config';

// The module's unit tests: no Docker, no podman (the suite against the image is vitest.container.config.ts).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['test/*.test.ts'],
  },
});
