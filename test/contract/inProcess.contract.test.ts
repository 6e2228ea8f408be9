import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { type Emulator, createEmulator } from '../../src/index.js';
import { handleContract } from '../support/handleContract.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', seed: 'contract' });
  await emulator.listen({ port: 0 });
});
beforeEach(() => void emulator.reset());
afterAll(() => emulator.close());

describe('API calls through the node listener (fast lane)', () => handleContract(() => emulator));
describe('API calls through hono (emulator.fetch)', () =>
  handleContract(
    () => emulator,
    (request) => Promise.resolve(emulator.fetch(request)),
  ));
