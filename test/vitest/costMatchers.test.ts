/** toStayGsm7, toFitSegments and toCostAtMost: a test fails when a text costs more than the team thinks, and says why. */

import { expect, test as plain } from 'vitest';
import { createSmsTest } from '../../src/vitest/index.js';

const test = createSmsTest({ emulator: { clock: 'manual', seed: 'cost-matchers' }, account: { balance: 100 } });

plain(
  'toStayGsm7 fails on a curly apostrophe with its position, code point and the apostrophe meant, and passes on the fix',
  () => {
    expect('It’s ready').not.toStayGsm7();
    expect(() => expect('It’s ready').toStayGsm7()).toThrow(
      /expected the text to stay GSM-7; it is UCS-2, 10 UTF-16 units, 1 segment: "It’s ready"\n {2}position 3: "’" U\+2019 RIGHT SINGLE QUOTATION MARK, use "'"\n {2}with those replaced: GSM-7, 1 segment/,
    );
    expect("It's ready").toStayGsm7();
  },
);

plain('toFitSegments reads a message object and fails past the budget with the breakdown', () => {
  const message = { message: `Parcel – ${'x'.repeat(70)}` };
  expect(() => expect(message).toFitSegments(1)).toThrow(/to fit 1 segment; it is UCS-2, 79 UTF-16 units, 2 segments/);
  expect(message).toFitSegments(2);
  expect({ message: 'x'.repeat(160) }).toFitSegments(1);
  expect(() => expect('hi').toFitSegments(0)).toThrow(/whole number of segments from 1/);
});

test('toCostAtMost passes within the budget and fails over it naming the top spenders and why', async ({ sms }) => {
  await sms.client.send({ recipient: ['27831234567', '27831234568'], message: `Your parcel’s here ${'x'.repeat(60)}` });
  await sms.client.send({ recipient: '27831234567', message: 'Thanks' });
  // In process the messages are at hand, so the matcher answers at once (over HTTP it is awaited).
  expect(sms).toCostAtMost(5);
  expect(() => expect(sms).toCostAtMost(4)).toThrow(
    /to cost at most 4 credits; it spent 5 credits on 2 messages\. Top spenders:\n {2}- 4 credits: to 27831234567, 27831234568: .*\(UCS-2, 2 segments × 2 recipients; UCS-2 forced by "’" at 12\)\n {2}- 1 credit: to 27831234567: "Thanks"/,
  );
});
