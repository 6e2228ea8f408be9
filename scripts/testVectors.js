// The shared test vectors (test-vectors/*.json) as the emulator's own code computes them, from the inputs listed here:
// scripts/write-test-vectors.js writes them (`npm run vectors`), test/domain/testVectors.test.ts holds the files to
// them, and every language kit checks its own signer, schedule formatting and payload reading against the files.
import { canonicalString, createEmulator, signRequest } from '../dist/index.js';
import { formatSchedule } from '../dist/client/index.js';

const secret = 'sk_test_vectors';

/** Each case: a name and the JSON body of a request, chosen for one rule of the canonical string. */
const signingInputs = [
  ['a send', { recipient: ['27831234567'], message: 'Hello' }],
  [
    'fields sorted by name, whatever the order given',
    { message: 'Hi', client_reference: 'order-1', recipient: ['27831234567'] },
  ],
  [
    'an array: name[]=value per item, in order',
    { recipient: ['27831234567', '27831234568', '27831234569'], message: 'Batch' },
  ],
  [
    'blank values dropped: empty text, null, blank array items',
    { recipient: ['27831234567', ''], message: 'Hi', client_reference: '', schedule: null },
  ],
  ['a space is %20, never +', { recipient: ['27831234567'], message: 'See you at 10 am' }],
  ['a plus sign is %2B', { recipient: ['27831234567'], message: '1+1=2' }],
  ['a tilde stays as it is (RFC 3986 unreserved)', { recipient: ['27831234567'], message: 'approx~5 min' }],
  [
    "!'()* are encoded (RFC 3986 reserved), as encodeURIComponent alone does not",
    { recipient: ['27831234567'], message: "Hi! It's (almost) *done*" },
  ],
  ['unreserved punctuation stays: - _ . ~', { recipient: ['27831234567'], message: 'a-b_c.d~e' }],
  [
    'slash, ampersand, equals, percent, hash and question mark are encoded',
    { recipient: ['27831234567'], message: 'a/b&c=d%e#f?g' },
  ],
  ['non-ASCII: UTF-8 bytes, percent-encoded', { recipient: ['27831234567'], message: 'Café in Zürich, façade' }],
  ['emoji: its four UTF-8 bytes', { recipient: ['27831234567'], message: 'Thanks 👍🏽' }],
  ['a newline and a tab are encoded', { recipient: ['27831234567'], message: 'line one\nline\ttwo' }],
  ['a number is its decimal text', { recipient: ['27831234567'], message: 'Hi', priority: 3, ratio: 1.5 }],
  [
    'a schedule with its offset: the + and : are encoded',
    { recipient: ['27831234567'], message: 'Later', schedule: '2026-11-22T09:30+02:00' },
  ],
  ['an edit: only the fields given', { message: 'Changed text' }],
];

export function signingVectors() {
  return {
    description:
      'Request signing: the canonical string of a JSON body (fields sorted by name, blank values dropped, name[]=value per array item, RFC 3986 percent-encoding of names and values, joined with &) and its Signature header, lowercase hex HMAC-SHA256 of that string with the signing secret.',
    cases: signingInputs.map(([name, fields]) => ({
      name,
      secret,
      fields,
      canonical: canonicalString(fields),
      signature: signRequest(fields, secret),
    })),
  };
}

/** Each case: an instant, the offset to write it in, and the schedule text the API takes. */
const scheduleInputs = [
  ['an instant on the minute, in the service zone', '2026-11-22T07:30:00.000Z', '+02:00'],
  ['seconds round up to the next minute: never earlier than asked', '2026-11-22T07:30:01.000Z', '+02:00'],
  ['milliseconds round up too', '2026-11-22T07:30:00.001Z', '+02:00'],
  ['the date changes with the offset', '2026-11-22T23:15:00.000Z', '+02:00'],
  ['a negative offset with minutes', '2026-11-22T07:30:00.000Z', '-05:30'],
  ['UTC', '2026-11-22T07:30:00.000Z', '+00:00'],
  ['a round-up across midnight and a year', '2026-12-31T21:59:30.000Z', '+02:00'],
];

export function scheduleVectors() {
  return {
    description:
      'Schedule formatting: an instant (ISO 8601 in UTC) written as the API takes a schedule, YYYY-MM-DDTHH:MM±HH:MM in the given offset; a time between minutes is rounded up, so a message never goes out earlier than asked.',
    cases: scheduleInputs.map(([name, instant, offset]) => ({
      name,
      instant,
      offset,
      schedule: formatSchedule(new Date(instant), offset),
    })),
  };
}

const outcomes = ['delivered', 'undelivered', 'expired', 'blist', 'noroute', 'failed'];

/** The webhooks of one send to a number per outcome, a reply and a STOP reply, as the emulator posts them. */
export async function webhookVectors() {
  const numbers = Object.fromEntries(outcomes.map((outcome, index) => [outcome, `2783000000${index + 1}`]));
  const emulator = createEmulator({
    clock: 'manual',
    seed: 'test-vectors',
    startTime: '2026-11-21T10:00:00Z',
    webhookUrl: 'http://receiver.test/hooks',
    scenario: {
      version: 1,
      magicNumbers: false,
      rules: outcomes.map((outcome) => ({ match: { recipient: numbers[outcome] }, outcome })),
    },
  });
  const posted = [];
  emulator.receiveWebhooksLocally('http://receiver.test/', (delivery) => {
    posted.push(delivery.body);
    return 200;
  });
  try {
    const body = {
      recipient: Object.values(numbers),
      message: 'Your order #1042 has shipped',
      client_reference: 'order-1042',
    };
    const answer = await emulator.fetch(
      new Request('http://127.0.0.1:2727/v1/messages', {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}`,
          'content-type': 'application/json',
          signature: signRequest(body, 'sk_test_sms_emulator'),
        },
        body: JSON.stringify(body),
      }),
    );
    if (answer.status !== 201) throw new Error(`test vectors: the send answered ${answer.status}`);
    const { id } = await answer.json();
    await emulator.clock.runUntilIdle();
    for (const text of ['Yes please, leave it at the door', 'STOP'])
      await emulator.replies.inject(id, { from: numbers.delivered, text });
    await emulator.webhooks.settled();
  } finally {
    await emulator.close();
  }
  const payloads = posted.map((text) => JSON.parse(text));
  return {
    description:
      'Webhook payloads exactly as the emulator posts them (JSON bodies, in the order posted): a delivery notification per leg status change (submitted, then the outcome) of one send to six numbers, one per outcome, then a reply and a STOP reply. A receiver must read every one.',
    cases: payloads.map((payload) => ({
      name: payload.type === 'sms' ? `${payload.status} (${payload.recipient[0]})` : `reply: ${payload.message}`,
      kind: payload.type === 'sms' ? 'delivery' : payload.message === 'STOP' ? 'stop-reply' : 'reply',
      payload,
    })),
  };
}
