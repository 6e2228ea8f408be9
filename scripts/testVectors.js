// The shared test vectors (test-vectors/*.json) as the emulator's own code computes them, from the inputs listed here:
// scripts/write-test-vectors.js writes them (`npm run vectors`), test/domain/testVectors.test.ts holds the files to
// them, and every language kit checks its own signer, schedule formatting and payload reading against the files.
import { canonicalString, countSegments, createEmulator, explainCost, signRequest } from '../dist/index.js';
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

/** The texts of the segment vectors, each named after the rule it holds: every boundary, both encodings, the traps. */
function segmentInputs() {
  const inputs = [];
  const add = (name, text) => inputs.push([name, text]);
  const a = (n) => 'a'.repeat(n);
  const e = (n) => 'ê'.repeat(n);
  for (const n of [0, 1, 2, 70, 152, 153, 154, 159, 160, 161, 162]) add(`GSM-7, ${n} septets`, a(n));
  for (let k = 2; k <= 7; k += 1)
    for (const d of [-2, -1, 0, 1, 2])
      add(`GSM-7 at ${k} × 153 ${d < 0 ? '-' : '+'} ${Math.abs(d)} septets`, a(153 * k + d));
  for (const n of [0, 1, 80, 81]) add(`GSM-7, ${n} euro signs (2 septets each)`, '€'.repeat(n));
  for (const char of ['€', '[', ']', '{', '}', '^', '~', '\\', '|', '\f'])
    for (const at of [159, 160])
      add(`extension ${JSON.stringify(char)} after ${at} septets (the single-part limit)`, a(at) + char);
  // The tail fills the text to (k + 1) × 153 septets: only an escape pair straddling the boundary needs a part more.
  for (let k = 1; k <= 4; k += 1)
    for (const before of [153 * k - 2, 153 * k - 1, 153 * k])
      for (const char of ['€', '[', ']', '{', '}', '^', '~', '\\', '|', '\f'])
        add(
          `extension ${JSON.stringify(char)} after ${before} septets, at the part boundary ${153 * k}`,
          a(before) + char + a(153 * (k + 1) - before - 2),
        );
  for (const n of [1, 2, 69, 70, 71]) add(`UCS-2, ${n} units`, e(n));
  for (let k = 2; k <= 7; k += 1)
    for (const d of [-2, -1, 0, 1, 2])
      add(`UCS-2 at ${k} × 67 ${d < 0 ? '-' : '+'} ${Math.abs(d)} units`, e(67 * k + d));
  for (const emoji of ['😀', '👍🏽', '👨‍👩‍👧', '🇿🇦', '1️⃣'])
    for (const before of [68, 69, 70])
      add(`${JSON.stringify(emoji)} after ${before} units (the single-part limit)`, e(before) + emoji);
  for (let k = 1; k <= 4; k += 1)
    for (const before of [67 * k - 2, 67 * k - 1, 67 * k])
      add(
        `a surrogate pair after ${before} units, at the part boundary ${67 * k}`,
        e(before) + '😀' + e(67 * (k + 1) - before - 2),
      );
  for (const n of [35, 36, 66, 67, 68, 134]) add(`${n} emoji of one surrogate pair each`, '😀'.repeat(n));
  for (const n of [10, 17, 18, 40]) add(`${n} thumbs with a skin-tone modifier (4 units each)`, '👍🏽'.repeat(n));
  for (const n of [8, 9, 20]) add(`${n} family emoji, a ZWJ sequence of 8 units each`, '👨‍👩‍👧'.repeat(n));
  add('CRLF: carriage return and line feed are two septets', `line one\r\nline two${a(150)}`);
  add('LF alone: one septet', `line one\nline two${a(150)}`);
  add('CRLF in UCS-2: two units', `ê\r\n${e(67)}`);
  add('NFC é is GSM-7', 'Café');
  add('NFD e + combining acute is UCS-2', 'Cafe\u0301');
  add('NFC ç is UCS-2 (GSM 03.38 has only Ç)', 'façade');
  add('NFC Ç is GSM-7', 'Ça va');
  for (const n of [439, 440, 441]) {
    add(`the spec's 440-character limit: ${n} GSM-7 characters`, a(n));
    add(`the spec's 440-character limit: ${n} UCS-2 characters`, e(n));
  }
  add("the spec's 440-character limit: 220 euro signs are 440 septets", '€'.repeat(220));
  const traps = [
    ['a curly apostrophe', 'It’s here'],
    ['a left single quotation mark', '‘quoted’'],
    ['curly double quotes', '“Hi”'],
    ['an en dash', 'Open 9–5'],
    ['an em dash', 'Wait—what'],
    ['an ellipsis', 'Wait…'],
    ['a no-break space', 'R\u00a0100'],
    ['a narrow no-break space', '10\u202f000'],
    ['a zero-width space', 'a\u200bb'],
    ['a soft hyphen', 'co\u00adop'],
    ['a grave accent for an apostrophe', 'It`s'],
    ['a bullet', '• item'],
  ];
  for (const [name, text] of traps) {
    add(`${name} makes a short text UCS-2`, text);
    add(`${name} doubles a 100-character text`, text + a(100 - [...text].length));
    add(`${name} at the end of 160 septets`, a(159) + text.slice(-1));
  }
  for (const n of [1, 10, 50, 100, 159]) add(`${n} GSM-7 septets then one curly apostrophe`, `${a(n)}’`);
  for (const char of ['Ä', 'Ö', 'Ñ', 'Ü', '§', '¿', 'à', 'ß', 'Δ', 'Φ', 'Ω', '@', '£', '$', '¥', 'è', 'ù', 'ì', 'ò'])
    add(`${JSON.stringify(char)} is in the GSM-7 basic set: 160 of them are one part`, char.repeat(160));
  for (const char of [
    'á',
    'í',
    'ó',
    'ú',
    'â',
    'õ',
    'ł',
    'ş',
    'ğ',
    'č',
    'ő',
    'α',
    'Ж',
    '中',
    '₹',
    '¢',
    '©',
    '®',
    '™',
    '°',
  ])
    add(`${JSON.stringify(char)} is outside GSM-7: 70 of them are one part`, char.repeat(70));
  return inputs;
}

/** Segments and encoding of texts at every boundary (issue 41): each kit's counter passes when it agrees with every case. */
export function segmentVectors() {
  return {
    description:
      'Segments as the emulator charges them (shared/DECISIONS.md, Credits): GSM-7 is one part up to 160 septets, else 153 a part (an extension character is an escape and itself, 2 septets); a character outside GSM 03.38 makes the whole text UCS-2, one part up to 70 UTF-16 units, else 67 a part. A multipart text is split as carriers split it: an escape pair or a surrogate pair never straddles two parts. Each case: name, text, encoding, units (septets or UTF-16 units), segments, and ucs2Trigger (the first character that forced UCS-2, or null).',
    cases: segmentInputs().map(([name, text]) => {
      const { encoding, units, segments } = countSegments(text);
      return { name, text, encoding, units, segments, ucs2Trigger: explainCost(text).triggers[0]?.char ?? null };
    }),
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
