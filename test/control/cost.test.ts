/** The cost operation: why a text costs what it costs, the same over HTTP and in process, under the emulator's pricing. */

import { expect, test } from 'vitest';
import { control, makeEmulator, send } from '../support/api.js';

test('POST /_emulator/cost names the curly apostrophe that made a text UCS-2, and the in-process handle says the same', async () => {
  const emulator = makeEmulator();
  const text = `It’s ready ${'x'.repeat(100)}`;
  const answer = await control(emulator, 'POST', '/cost', { text, recipients: 3 });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ encoding: 'UCS-2', segments: 2, credits: 6, pricing: 'per-segment' });
  expect(answer.body.triggers).toEqual([
    { char: '’', codePoint: 'U+2019', name: 'RIGHT SINGLE QUOTATION MARK', position: 3, index: 2, suggestion: "'" },
  ]);
  expect(answer.body.fix).toMatchObject({ encoding: 'GSM-7', segments: 1, credits: 3 });
  expect(emulator.cost({ text, recipients: 3 })).toEqual(answer.body);
});

test("the credits follow the emulator's pricing", () => {
  const emulator = makeEmulator({ pricing: 'per-message' });
  expect(emulator.cost({ text: 'ê'.repeat(200), recipients: 2 }).credits).toBe(2);
});

test('a text too long, a recipient count out of range or a field it does not take is refused, naming the input', async () => {
  const emulator = makeEmulator();
  for (const body of [{ text: 'x'.repeat(10_001) }, { text: 'hi', recipients: 0 }, { text: 'hi', colour: 'red' }, {}]) {
    const answer = await control(emulator, 'POST', '/cost', body);
    expect(answer.status, JSON.stringify(body).slice(0, 40)).toBe(400);
    expect(answer.body.description).toMatch(/^Invalid cost question: /);
  }
});

test("a message view carries its cost explanation's essentials: units and every trigger with its position and suggestion; the /v1 answer does not change", async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Cafe\u0301 9–5' });
  expect(Object.keys(sent)).not.toContain('triggers');
  expect(Object.keys(sent)).not.toContain('units');
  const view = (await control(emulator, 'GET', `/messages/${sent.id}`)).body;
  expect(view).toMatchObject({ encoding: 'UCS-2', units: 9, segments: 1, credit: 2, ucs2_trigger: '\u0301' });
  expect(view.triggers).toEqual([
    {
      char: '\u0301',
      codePoint: 'U+0301',
      name: 'COMBINING ACUTE ACCENT',
      position: 5,
      index: 4,
      suggestion: 'é',
    },
    { char: '–', codePoint: 'U+2013', name: 'EN DASH', position: 8, index: 7, suggestion: '-' },
  ]);
  expect(emulator.messages.get(sent.id)).toEqual(view);
});
