import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type EmulatorProcess, type RemoteEmulator, connect, startEmulator } from '../../src/index.js';
import { handleContract } from '../support/handleContract.js';

let started: EmulatorProcess;
let emulator: RemoteEmulator;
beforeAll(async () => {
  started = await startEmulator({ clock: 'manual', seed: 'contract', controlToken: 'contract-token' });
  emulator = connect(started.info.origin, { controlToken: started.controlToken });
});
beforeEach(() => emulator.reset());
afterAll(() => started?.stop());

handleContract(() => emulator);
