import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type Emulator, createEmulator } from '../../src/index.js';
import { handleContract } from '../support/handleContract.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', seed: 'contract' });
  await emulator.listen({ port: 0 });
});
beforeEach(() => void emulator.reset());
afterAll(() => emulator.close());

handleContract(() => emulator);
