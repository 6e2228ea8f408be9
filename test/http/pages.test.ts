/** The pages a user opens: landing page, docs (no redirect loop), OpenAPI, health; `/` leads to them. */

import { expect, test } from 'vitest';
import { makeEmulator, origin } from '../support/api.js';

test('the landing page, docs pages, OpenAPI document and health all answer 200', async () => {
  const emulator = makeEmulator();
  for (const path of [
    '/_emulator',
    '/_emulator/',
    '/_emulator/docs/',
    '/_emulator/docs/messages',
    '/_emulator/docs/errors',
    '/_emulator/openapi.json',
    '/_emulator/health',
  ]) {
    const response = await emulator.fetch(new Request(`${origin}${path}`, { redirect: 'manual' }));
    expect(response.status, path).toBe(200);
  }
  const landing = await (await emulator.fetch(new Request(`${origin}/_emulator`))).text();
  for (const link of ['/_emulator/docs/', '/_emulator/openapi.json', '/_emulator/health', '/_emulator/requests']) expect(landing).toContain(link);
});

test('/ redirects to the landing page when the web inbox is off', async () => {
  const response = await makeEmulator({ ui: false }).fetch(new Request(`${origin}/`, { redirect: 'manual' }));
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe('/_emulator');
});
