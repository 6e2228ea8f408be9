/** close() ends every timer, socket and trickle the emulator started, so a process that embedded it exits at once. */

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const script = fileURLToPath(new URL('../fixtures/scripts/closeWithTrickles.mjs', import.meta.url));

test.each(['fast-lane', 'hono'])(
  'after close(), 200 abandoned slow-body answers on the %s path leave nothing the emulator started, and the process exits at once',
  (path) => {
    // The trickles would last a minute: a process that exits within the spawn's limit had none left.
    const run = spawnSync(process.execPath, [script, path], { encoding: 'utf8', timeout: 30_000 });
    expect(run.signal, `killed: ${run.stderr}`).toBeNull();
    expect(run.stderr).toBe('');
    const { statuses, left } = JSON.parse(run.stdout);
    expect(statuses).toEqual([201]);
    expect(left).toEqual([]);
    expect(run.status).toBe(0);
  },
  60_000,
);

const abandoned = fileURLToPath(new URL('../fixtures/scripts/abandonedTrickles.mjs', import.meta.url));

test.each(['fast-lane', 'hono', 'fetch'])(
  'a slow-body answer whose client leaves stops trickling: once 50 clients have left on the %s path, the emulator holds no timer for them',
  (path) => {
    const run = spawnSync(process.execPath, [abandoned, path], { encoding: 'utf8', timeout: 50_000 });
    expect(run.signal, `killed: ${run.stderr}`).toBeNull();
    expect(run.stderr).toBe('');
    const { statuses, left } = JSON.parse(run.stdout);
    expect(statuses).toEqual([201]);
    expect(left).toBe(0);
  },
  60_000,
);
