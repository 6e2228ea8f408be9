/** Property: hostile control API requests (clock, snapshots, scenarios, accounts, ...) never get a 5xx, always a catalogued error, and change nothing when refused. */

import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { send as sendSigned } from '../support/api.js';
import {
  type FuzzRequest,
  expectUsable,
  expectWellFormed,
  fuzzEmulator,
  jsonText,
  nastyText,
  pathTail,
  runs,
  send,
  stateOf,
} from './arbitraries.js';
import { requestPaths } from '../support/requestPaths.js';

const duration = fc.oneof(
  fc.constantFrom(
    '1s',
    '90s',
    '15m',
    '2h',
    '7d',
    '36500d',
    '36501d',
    '99999999999999999999d',
    '-5m',
    '1e300',
    '',
    'soon',
    '0',
  ),
  fc.double(),
  fc.integer(),
  nastyText,
);
const instant = fc.oneof(
  fc.constantFrom(
    '2026-11-21T10:30:00Z',
    '2026-11-21T09:00:00Z',
    '9999-12-31T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '+010000-01-01T00:00:00Z',
    '1969-12-31T23:59:59Z',
    'tomorrow',
  ),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  nastyText,
);

/** Clock commands within and far outside the documented ranges (the clock stays manual so state can be compared). */
const clockCommand = fc.record(
  {
    advance: duration,
    set: instant,
    mode: fc.oneof(fc.constant('manual'), nastyText),
    speed: fc.oneof(fc.double(), fc.constantFrom(1e308, 0, -1, 1_000_001)),
    runUntilIdle: fc.boolean(),
    limit: duration,
    next: fc.boolean(),
  },
  { requiredKeys: [] },
);

const matchSpec = fc.record(
  {
    recipient: fc.oneof(
      fc.constantFrom('2783*', '*'.repeat(30), '27831234567', '?'.repeat(1001)),
      nastyText,
      fc.record({ glob: nastyText, regex: nastyText, prefix: nastyText }, { requiredKeys: [] }),
    ),
    text: fc.oneof(
      nastyText,
      fc.record({
        regex: fc.oneof(
          fc.constantFrom('^(a+)+$', '(a)\\1', '(?i)stop', '(', `${'('.repeat(5000)}a${')'.repeat(5000)}`),
          nastyText,
        ),
      }),
    ),
  },
  { requiredKeys: [] },
);

/** Scenarios as objects, as YAML text, and as nasty text (aliases, bombs, deep nesting). */
const scenario = fc.oneof(
  fc
    .record(
      {
        version: fc.oneof(fc.constant(1), jsonText),
        rules: fc.array(
          fc.record({
            match: matchSpec,
            outcome: fc.oneof(
              fc.constantFrom('delivered', 'failed', 'lost'),
              fc.record({
                timeline: fc.array(
                  fc.record({ status: fc.constantFrom('submitted', 'delivered', 'pending'), after: duration }),
                  { maxLength: 3 },
                ),
              }),
            ),
          }),
          { maxLength: 3 },
        ),
        replies: fc.array(fc.record({ match: matchSpec, after: duration, text: nastyText }), { maxLength: 2 }),
        timeline: fc.array(
          fc.record({
            at: duration,
            setBalance: fc.record({
              account: fc.constantFrom('pk_test_sms_emulator', 'pk_nobody'),
              balance: fc.integer(),
            }),
          }),
          { maxLength: 2 },
        ),
        accounts: fc.array(
          fc.record({
            apiKey: fc.oneof(fc.constant('pk_scenario'), nastyText),
            balance: fc.oneof(fc.integer(), fc.double()),
          }),
          {
            maxLength: 2,
          },
        ),
      },
      { requiredKeys: ['version'] },
    )
    .map((value) => JSON.stringify(value)),
  fc.constantFrom(
    'version: 1\ndescription: *nothing\n',
    `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nversion: 1\n`,
    `${'- '.repeat(50_000)}x`,
    'version: 1\nrules:\n  - match: { text: { regex: "^(a+)+$" } }\n    outcome: failed\n',
    'version: 1\noptions: { batchLimit: 5 }\n',
    ':\n- [',
  ),
  jsonText,
);

const accountBody = fc.record(
  {
    apiKey: fc.oneof(fc.constantFrom('pk_new', 'pk_test_sms_emulator', 'pk_ sp'), nastyText),
    balance: fc.oneof(fc.integer(), fc.double(), fc.constant(-1)),
    webhookUrl: fc.oneof(
      fc.constantFrom('http://127.0.0.1:9/x', 'javascript:alert(1)', 'not a url'),
      fc.constant(null),
    ),
    live: fc.record(
      {
        balance: fc.oneof(fc.integer(), fc.double()),
        addBalance: fc.oneof(fc.integer(), fc.constant(-1e300), fc.constant(Number.MAX_SAFE_INTEGER)),
      },
      { requiredKeys: [] },
    ),
    scopes: fc.array(fc.oneof(fc.constantFrom('send', 'read'), nastyText), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

type SnapshotEdit = { path: (string | number)[]; value: unknown } | undefined;
/** A change at a random place of the current snapshot (or none: importing it unchanged must work). */
const snapshotEdit: fc.Arbitrary<SnapshotEdit> = fc.option(
  fc.record({
    path: fc.array(
      fc.oneof(
        fc.constantFrom(
          'clock',
          'now',
          'speed',
          'messages',
          'replies',
          'accounts',
          'legs',
          'plan',
          'history',
          'status',
          'at',
          'id',
          'apiKey',
          'balance',
          'live',
          'inReplyTo',
          'random',
          'ids',
        ),
        fc.integer({ min: 0, max: 2 }),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    value: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(1e300, -1, 1.5, 'submitted', 'delivered', 'pk_test_sms_emulator', null, []),
    ),
  }),
  { nil: undefined },
);

function edited(snapshot: unknown, edit: SnapshotEdit): unknown {
  if (!edit) return snapshot;
  let node: any = snapshot;
  for (const key of edit.path.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !(key in node)) return snapshot;
    node = node[key];
  }
  if (node !== null && typeof node === 'object') node[edit.path[edit.path.length - 1] as string] = edit.value;
  return snapshot;
}

type ControlCase = { method: string; tail: string; body?: string; snapshot?: SnapshotEdit };

const controlCase: fc.Arbitrary<ControlCase> = fc.oneof(
  fc.record({
    method: fc.constantFrom('POST', 'GET', 'PUT'),
    tail: fc.constant('/clock'),
    body: fc.oneof(
      clockCommand.map((value) => JSON.stringify(value)),
      jsonText,
    ),
  }),
  fc.record({ method: fc.constant('PUT'), tail: fc.constant('/scenario'), body: scenario }),
  fc.record({ method: fc.constant('PUT'), tail: fc.constant('/snapshot'), snapshot: snapshotEdit }),
  fc.record({ method: fc.constant('PUT'), tail: fc.constant('/snapshot'), body: jsonText }),
  fc.record({
    method: fc.constantFrom('POST', 'PATCH', 'DELETE', 'GET'),
    tail: fc.constantFrom('/accounts', '/accounts/pk_test_sms_emulator', '/accounts/pk_new', '/accounts/%00'),
    body: fc.oneof(
      accountBody.map((value) => JSON.stringify(value)),
      jsonText,
    ),
  }),
  fc.record({
    method: fc.constantFrom('POST', 'GET'),
    tail: fc.constantFrom(
      '/sign',
      '/sign?account=pk_nobody',
      '/messages/{last}/replies',
      '/messages/{last}/status',
      '/messages/{last}',
      '/webhooks/chaos',
      '/webhooks/settle',
      '/reset',
    ),
    body: jsonText,
  }),
  fc.record({
    method: fc.constantFrom('POST'),
    tail: fc.constantFrom('/messages/{last}/replies', '/messages/{last}/status'),
    body: fc
      .record(
        {
          from: fc.oneof(fc.constant('27831234567'), nastyText),
          text: nastyText,
          status: fc.oneof(fc.constantFrom('undelivered', 'delivered', 'submitted', 'scheduled'), nastyText),
          recipient: nastyText,
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
  }),
  fc.record({
    method: fc.constantFrom('GET', 'PUT', 'DELETE', 'POST', 'PATCH'),
    tail: pathTail,
    body: fc.option(jsonText, { nil: undefined }),
  }),
  fc.record({
    method: fc.constantFrom('GET', 'PUT', 'DELETE'),
    tail: fc.constantFrom(
      '/opt-outs/27831234567',
      '/opt-outs/abc',
      '/opt-outs?environment=moon',
      '/messages?status=%00',
      '/requests?limit=1e300',
      '/webhooks?state=x',
      '/replies',
      '/snapshot',
      '/health',
    ),
  }),
);

/** Sends a few valid messages first so there is state to protect (and ids to aim at). */
async function seeded(emulator: Emulator): Promise<string> {
  let id = 'none';
  for (const recipient of ['27831234567', '27830000007'])
    id = (await sendSigned(emulator, { recipient: [recipient], message: 'seed' })).id;
  await emulator.clock.advance('6s');
  return id;
}

test.each(requestPaths)(
  'hostile control API requests get no 5xx, only catalogued errors, and a refused one changes no state, through %s',
  async (path) => {
    await fc.assert(
      fc.asyncProperty(fc.array(controlCase, { minLength: 1, maxLength: 5 }), async (cases) => {
        const emulator = fuzzEmulator();
        try {
          const last = await seeded(emulator);
          for (const item of cases) {
            const body =
              item.snapshot !== undefined ||
              (item.tail === '/snapshot' && item.body === undefined && item.method === 'PUT')
                ? JSON.stringify(edited(emulator.snapshot(), item.snapshot))
                : item.body;
            const request: FuzzRequest = {
              method: item.method,
              path: `/_emulator${item.tail.replace('{last}', last)}`,
              headers: { 'content-type': 'application/json' },
              body,
            };
            const before = stateOf(emulator);
            const answer = await send(emulator, request, path);
            if (!answer) continue;
            const code = expectWellFormed(request, answer);
            if (code !== undefined)
              expect(stateOf(emulator), `${request.method} ${request.path} → ${code} changed state`).toBe(before);
            expect(emulator.clock.state().mode).toBe('manual');
          }
          // Whatever happened, an exported snapshot imports again unchanged.
          const exported = emulator.snapshot();
          emulator.restore(exported);
          expect(emulator.snapshot()).toEqual(exported);
          await expectUsable(emulator);
        } finally {
          await emulator.close();
        }
      }),
      runs(120),
    );
  },
  180_000,
);
