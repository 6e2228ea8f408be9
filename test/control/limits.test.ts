/** The limits an emulator applies, as JSON: what a suite in another process reads instead of the landing page's HTML. */

import { expect, test } from 'vitest';
import { connect, createEmulator } from '../../src/index.js';

test('the applied batch limit, with why, and the text and body limits answer GET /_emulator/limits, connect() and the in-process handle alike', async () => {
  const emulator = createEmulator({ clock: 'manual', batchLimit: 100, messageLimit: 160, controlToken: 'secret' });
  try {
    const { origin } = await emulator.listen({ port: 0 });
    const expected = {
      batchLimit: 100,
      batchLimitNote:
        '100 recipients per request (set with batchLimit (--batch-limit); the spec states 500, and 100 in another place)',
      messageLimit: 160,
      maxBodySize: 1_048_576,
    };
    const response = await fetch(`${origin}/_emulator/limits`, {
      headers: { accept: 'application/json', authorization: 'Bearer secret' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(expected);
    expect(await connect(origin, { controlToken: 'secret' }).limits()).toEqual(expected);
    expect(emulator.limits()).toEqual(expected);
  } finally {
    await emulator.close();
  }
});

test('the default batch limit says it is the default', () => {
  const emulator = createEmulator({ clock: 'manual' });
  try {
    expect(emulator.limits()).toMatchObject({ batchLimit: 500, batchLimitNote: expect.stringMatching(/the default/) });
  } finally {
    void emulator.close();
  }
});
