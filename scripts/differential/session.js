// The differential run's one scripted session: the HTTP API, both control handles, the control routes and delivery behaviours, every answer recorded.
import { createHmac } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signRequest } from '../../dist/index.js';

/**
 * The options both emulators start with: a seed (ids and random choices), a manual clock from one instant, webhook
 * signing on. What else the session needs it sets through the API, so both builds see the same requests.
 */
export const sessionOptions = {
  seed: 'differential',
  clock: 'manual',
  startTime: '2026-11-20T08:00:00Z',
  webhookSigningSecret: 'whsec_differential',
};

const key = 'pk_test_sms_emulator';
const secret = 'sk_test_sms_emulator';

/**
 * Keys whose values are wall-clock readings, the only legitimately random parts of an answer once the seed, the
 * clock and the start time are fixed: journal entries' `wallTime` and the measured `durationMs` of requests and tries.
 */
export const wallClockKeys = ['wallTime', 'durationMs'];

/**
 * Runs the session against the build whose compiled library is `distDir` (its `dist/` folder) and answers what it
 * recorded: `{ build, calls: [{ call, answer, webhooks? }] }`, every answer made JSON, wall-clock values replaced and
 * the two servers' ports written as `<emulator>` and `<receiver>`. `change`, for the harness's own test, may rewrite
 * each recorded answer before it is kept (a deliberate difference).
 */
export async function recordSession(distDir, { change } = {}) {
  const library = await import(pathToFileURL(join(distDir, 'index.js')).href);
  const receiver = await startReceiver();
  const emulator = library.createEmulator({ ...sessionOptions, webhookUrl: `${receiver.url}/default` });
  const calls = [];
  try {
    const { origin } = await emulator.listen({ port: 0, host: '127.0.0.1' });
    const remote = library.connect(origin);
    const session = new Session({ origin, receiver, calls, change });
    await drive(session, emulator, remote);
    const hosts = [
      [new URL(origin).host, '<emulator>'],
      [new URL(receiver.url).host, '<receiver>'],
    ];
    return { build: distDir, calls: calls.map((call) => normalise(call, hosts)) };
  } finally {
    await emulator.close();
    await receiver.close();
  }
}

/** The recorder: each call's answer (or what it threw) and the webhook posts that arrived while it ran. */
class Session {
  constructor({ origin, receiver, calls, change }) {
    this.origin = origin;
    this.receiver = receiver;
    this.calls = calls;
    this.change = change;
    this.names = new Set();
  }

  /** Runs one call and records it under `name` (unique in the session, so the diff can pair calls by name). */
  async step(name, run) {
    if (this.names.has(name)) throw new Error(`differential: two calls named ${name}`);
    this.names.add(name);
    this.receiver.take();
    let answer;
    try {
      answer = asJson(await run());
    } catch (error) {
      answer = { thrown: thrownView(error) };
    }
    if (this.change !== undefined) answer = this.change(name, answer);
    const webhooks = this.receiver.take();
    this.calls.push(webhooks.length === 0 ? { call: name, answer } : { call: name, answer, webhooks });
    return answer;
  }

  /** A plain HTTP call to the emulator, recorded as status, content type and body (parsed when it is JSON); `auth: null` sends no key. */
  http(name, method, path, { headers = {}, body, auth = key } = {}) {
    return this.step(name, async () => {
      const sent = { ...headers };
      if (auth !== null) sent.authorization = `Basic ${Buffer.from(`${auth}:`).toString('base64')}`;
      let text;
      if (body !== undefined) {
        text = typeof body === 'string' ? body : JSON.stringify(body);
        sent['content-type'] ??= 'application/json';
      }
      const answer = await exchange(`${this.origin}${path}`, method, sent, text);
      return answer;
    });
  }

  /** A signed API call: the Signature header of the fields, with the harness's own signer, so both builds get one header. */
  signed(name, method, path, fields, { signingSecret = secret, ...options } = {}) {
    return this.http(name, method, path, {
      ...options,
      body: fields,
      headers: { signature: signRequest(fields, signingSecret), ...options.headers },
    });
  }
}

/** Every call of the session, in order; the recorded names pair the two builds' answers. */
async function drive(s, emulator, remote) {
  const local = emulator;
  // The HTTP API (/v1 and /sandbox/v1).
  await s.http('GET /v1/messages/balance', 'GET', '/v1/messages/balance');
  const sent = await s.signed('POST /v1/messages (send, every field)', 'POST', '/v1/messages', {
    recipient: ['27831234567', '27832345678'],
    message: 'Hello from the differential run: café ✓',
    client_reference: 'diff-1',
  });
  await s.signed('POST /v1/messages (send, one recipient)', 'POST', '/v1/messages', {
    recipient: ['27835550001'],
    message: 'Second message',
  });
  const scheduled = await s.signed('POST /v1/messages (schedule)', 'POST', '/v1/messages', {
    recipient: ['27831234567'],
    message: 'Later',
    schedule: '2026-11-20T14:00+02:00',
    client_reference: 'diff-scheduled',
  });
  const scheduledId = scheduled.body?.id ?? 'missing';
  const sentId = sent.body?.id ?? 'missing';
  await s.http('PATCH /v1/messages/{scheduled} (edit every field)', 'PATCH', `/v1/messages/${scheduledId}`, {
    body: {
      recipient: ['27831234567', '27839876543'],
      message: 'Later, changed',
      schedule: '2026-11-20T15:30',
      client_reference: 'diff-edited',
    },
  });
  await s.http('GET /v1/messages/{scheduled}', 'GET', `/v1/messages/${scheduledId}`);
  const toDelete = await s.signed('POST /v1/messages (schedule, to delete)', 'POST', '/v1/messages', {
    recipient: ['27834440000'],
    message: 'Never sent',
    schedule: '2026-11-21T09:00',
  });
  await s.http('DELETE /v1/messages/{scheduled}', 'DELETE', `/v1/messages/${toDelete.body?.id ?? 'missing'}`);
  await s.http('GET /v1/messages/{deleted}', 'GET', `/v1/messages/${toDelete.body?.id ?? 'missing'}`);
  await s.http('PATCH /v1/messages/{sent} (not scheduled)', 'PATCH', `/v1/messages/${sentId}`, {
    body: { message: 'too late' },
  });
  await s.http('DELETE /v1/messages/{sent} (not scheduled)', 'DELETE', `/v1/messages/${sentId}`);
  await s.http('GET /v1/messages/{sent}', 'GET', `/v1/messages/${sentId}`);
  await s.http('GET /v1/messages', 'GET', '/v1/messages');
  await s.http(
    'GET /v1/messages?recipient&search&page&limit',
    'GET',
    '/v1/messages?recipient=2783&search=hello&page=1&limit=1',
  );
  await s.http('GET /v1/messages?status=scheduled', 'GET', '/v1/messages?status=scheduled');
  await s.http('GET /v1/messages?page=9 (past the end)', 'GET', '/v1/messages?page=9');
  await s.http('GET /v1/messages?status=deliverd (unknown)', 'GET', '/v1/messages?status=deliverd');
  await s.http('GET /v1/messages?limit=1e3 (not digits)', 'GET', '/v1/messages?limit=1e3');
  await s.http('GET /v1/messages/{unknown}', 'GET', '/v1/messages/no-such-id');
  await s.http('PUT /v1/messages/balance (method)', 'PUT', '/v1/messages/balance');
  await s.http('POST /v1/messages (form body)', 'POST', '/v1/messages', {
    body: 'recipient[]=27831112222&message=Form%20body',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      signature: signRequest({ recipient: ['27831112222'], message: 'Form body' }, secret),
    },
  });
  // Errors: authentication, signature, validation, credit.
  await s.http('GET /v1/messages/balance (no auth)', 'GET', '/v1/messages/balance', { auth: null });
  await s.http('GET /v1/messages/balance (unknown key)', 'GET', '/v1/messages/balance', { auth: 'pk_nobody' });
  await s.http('POST /v1/messages (no signature)', 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'unsigned' },
  });
  await s.signed(
    'POST /v1/messages (wrong signature)',
    'POST',
    '/v1/messages',
    { recipient: ['27831234567'], message: 'bad' },
    { signingSecret: 'sk_wrong' },
  );
  await s.signed('POST /v1/messages (recipient missing)', 'POST', '/v1/messages', { message: 'nobody' });
  await s.signed('POST /v1/messages (recipient blank)', 'POST', '/v1/messages', { recipient: [], message: 'x' });
  await s.signed('POST /v1/messages (recipient malformed)', 'POST', '/v1/messages', {
    recipient: ['0831234567', '27831234567'],
    message: 'x',
  });
  await s.signed('POST /v1/messages (message missing)', 'POST', '/v1/messages', { recipient: ['27831234567'] });
  await s.signed('POST /v1/messages (message too long)', 'POST', '/v1/messages', {
    recipient: ['27831234567'],
    message: 'x'.repeat(441),
  });
  await s.signed('POST /v1/messages (client_reference too long)', 'POST', '/v1/messages', {
    recipient: ['27831234567'],
    message: 'x',
    client_reference: 'r'.repeat(101),
  });
  await s.signed('POST /v1/messages (schedule too soon)', 'POST', '/v1/messages', {
    recipient: ['27831234567'],
    message: 'x',
    schedule: '2026-11-20T10:05+02:00',
  });
  await s.signed('POST /v1/messages (schedule malformed)', 'POST', '/v1/messages', {
    recipient: ['27831234567'],
    message: 'x',
    schedule: 'tomorrow',
  });
  await s.http('POST /v1/messages (malformed JSON)', 'POST', '/v1/messages', {
    body: '{"recipient": [',
    headers: { signature: 'abc' },
  });
  await s.step('accounts.create (no credit, in process)', () =>
    local.accounts.create({ apiKey: 'pk_broke', signingSecret: 'sk_broke', balance: 0 }),
  );
  await s.signed(
    'POST /v1/messages (insufficient credit)',
    'POST',
    '/v1/messages',
    { recipient: ['27831234567'], message: 'no credit' },
    { auth: 'pk_broke', signingSecret: 'sk_broke' },
  );
  // The sandbox.
  await s.http('GET /sandbox/v1/messages/balance', 'GET', '/sandbox/v1/messages/balance');
  await s.signed('POST /sandbox/v1/messages', 'POST', '/sandbox/v1/messages', {
    recipient: ['27831234567'],
    message: 'Sandbox hello',
    client_reference: 'diff-sandbox',
  });
  await s.http('GET /sandbox/v1/messages', 'GET', '/sandbox/v1/messages');
  await s.http('GET /sandbox/v1/messages/balance (after)', 'GET', '/sandbox/v1/messages/balance');
  await s.http('GET /v1/messages/balance (after)', 'GET', '/v1/messages/balance');

  // The control routes over plain HTTP, and the OpenAPI document.
  await s.http('GET /_emulator/openapi.json', 'GET', '/_emulator/openapi.json', { auth: null });
  for (const [name, path] of [
    '/_emulator/health',
    '/_emulator/limits',
    '/_emulator/clock',
    '/_emulator/clocks',
    '/_emulator/accounts',
    `/_emulator/accounts/${key}`,
    '/_emulator/messages?environment=live&status=pending',
    ['/_emulator/messages/{sent}', `/_emulator/messages/${sentId}`],
    '/_emulator/replies',
    '/_emulator/webhooks',
    '/_emulator/webhooks/chaos',
    '/_emulator/scenario',
    '/_emulator/scenario/bundled',
    '/_emulator/opt-outs',
    '/_emulator/requests?code=SIGNATURE_MISMATCH',
    '/_emulator/requests/count',
    '/_emulator/messages/no-such-id',
    '/_emulator/messages?status=deliverd',
    '/_emulator/messages?page=0',
  ].map((path) => (Array.isArray(path) ? path : [path, path])))
    await s.http(`GET ${name}`, 'GET', path, { auth: null });
  await s.http('POST /_emulator/sign', 'POST', '/_emulator/sign', {
    auth: null,
    body: { recipient: ['27831234567'], message: 'Hi' },
  });
  await s.http('POST /_emulator/clock (advance 2s)', 'POST', '/_emulator/clock', {
    auth: null,
    body: { advance: '2s' },
  });
  await s.http('POST /_emulator/clock (backwards)', 'POST', '/_emulator/clock', {
    auth: null,
    body: { set: '2026-11-19T08:00:00Z' },
  });
  await s.http('POST /_emulator/accounts (bad key)', 'POST', '/_emulator/accounts', {
    auth: null,
    body: { apiKey: 'nope' },
  });
  await s.http('PUT /_emulator/opt-outs/27836660000', 'PUT', '/_emulator/opt-outs/27836660000', { auth: null });
  await s.http('DELETE /_emulator/opt-outs/27836660000', 'DELETE', '/_emulator/opt-outs/27836660000', {
    auth: null,
  });
  await s.http('POST /_emulator/messages/{sent}/status', 'POST', `/_emulator/messages/${sentId}/status`, {
    auth: null,
    body: { status: 'delivered', recipient: '27832345678' },
  });
  await s.http('POST /_emulator/messages/{sent}/replies', 'POST', `/_emulator/messages/${sentId}/replies`, {
    auth: null,
    body: { from: '27831234567', text: 'Yes please' },
  });
  await s.http('POST /_emulator/webhooks/settle', 'POST', '/_emulator/webhooks/settle', { auth: null });

  // The in-process handle.
  await s.step('clock.state (in process)', () => local.clock.state());
  await s.step('clock.now (in process)', () => local.clock.now());
  await s.step('clock.advance 1m (in process)', () => local.clock.advance('1m'));
  await s.step('clock.move backwards (in process)', () => local.clock.move({ set: '2026-11-01T00:00:00Z' }));
  await s.step('accounts.create (in process)', () =>
    local.accounts.create({
      apiKey: 'pk_team',
      signingSecret: 'sk_team',
      balance: 50,
      sandboxBalance: 5,
      webhookUrl: `${s.receiver.url}/team`,
      scopes: ['balance', 'send', 'read'],
    }),
  );
  await s.step('accounts.create duplicate (in process)', () => local.accounts.create({ apiKey: 'pk_team' }));
  await s.step('accounts.update (in process)', () =>
    local.accounts.update('pk_team', { live: { addBalance: 10 }, sandbox: { balance: 7 } }),
  );
  await s.step('accounts.update below 0 (in process)', () =>
    local.accounts.update('pk_team', { live: { balance: -1 } }),
  );
  await s.step('accounts.get (in process)', () => local.accounts.get('pk_team'));
  await s.step('accounts.list (in process)', () => local.accounts.list());
  await s.step('accounts.setScenario (in process)', () =>
    local.accounts.setScenario('pk_team', {
      rules: [{ match: { recipient: '27830000001' }, outcome: 'undelivered' }],
      webhooks: [{ behaviour: 'answer-ignored' }],
    }),
  );
  await s.step('accounts.getScenario (in process)', () => local.accounts.getScenario('pk_team'));
  await s.signed(
    'POST /v1/messages (team)',
    'POST',
    '/v1/messages',
    { recipient: ['27830000001', '27831234567'], message: 'Team message' },
    { auth: 'pk_team', signingSecret: 'sk_team' },
  );
  await s.step('clock.advance 10s, team webhooks (in process)', () => local.clock.advance('10s'));
  await s.step('messages.list (in process)', () => local.messages.list({ account: 'pk_team' }));
  await s.step('messages.list by reference (in process)', () => local.messages.list({ clientReference: 'diff-1' }));
  await s.step('messages.get (in process)', () => local.messages.get(sentId));
  await s.step('messages.get unknown (in process)', () => local.messages.get('no-such-id'));
  await s.step('webhooks.list (in process)', () => local.webhooks.list({ account: 'pk_team' }));
  await s.step('webhooks.chaos (in process)', () => local.webhooks.chaos());
  await s.step('accounts.clearScenario (in process)', () => local.accounts.clearScenario('pk_team'));
  await s.step('accounts.useBundledScenario (in process)', () =>
    local.accounts.useBundledScenario('pk_team', 'happy-path'),
  );
  await s.step('accounts.delete (in process)', () => local.accounts.delete('pk_team'));
  await s.step('accounts.get deleted (in process)', () => local.accounts.get('pk_team'));
  await s.step('scenario.bundled (in process)', () => local.scenario.bundled());
  await s.step('scenario.useBundled unknown (in process)', () => local.scenario.useBundled('no-such-scenario'));
  await s.step('scenario.set invalid (in process)', () =>
    local.scenario.set({ version: 1, rules: [{ outcome: 'sideways' }] }),
  );
  await s.step('requests.find (in process)', () => local.requests.find({ method: 'POST', limit: 5 }));
  await s.step('requests.count (in process)', () => local.requests.count({ status: 401 }));
  await s.step('optOuts.add (in process)', () => local.optOuts.add('27837770000'));
  await s.step('optOuts.list (in process)', () => local.optOuts.list());
  await s.step('worlds.create (in process)', () =>
    local.worlds.create({
      name: 'differential world',
      startTime: '2026-11-20T09:00:00Z',
      account: { balance: 20, webhookUrl: `${s.receiver.url}/world` },
      scenario: { rules: [{ match: { recipient: '27838880000' }, outcome: 'expired' }] },
    }),
  );
  await s.step('clocks.list (in process)', () => local.clocks.list());

  const log = await s.step('webhooks.list default account (in process)', () => local.webhooks.list({ account: key }));
  const eventId = log.items?.[0]?.id ?? 'missing';
  await s.step('webhooks.get (in process)', () => local.webhooks.get(eventId));
  await s.step('webhooks.redeliver (remote)', () => remote.webhooks.redeliver(eventId));
  await s.step('webhooks.settled (in process)', () => local.webhooks.settled());
  await s.step('replies.inject STOP (in process)', () => local.replies.inject(sentId, { text: 'STOP' }));
  await s.step('optOuts.list after STOP (in process)', () => local.optOuts.list());
  await s.step('optOuts.remove (in process)', () => local.optOuts.remove('27831234567'));
  const forced = await s.signed('POST /v1/messages (to force)', 'POST', '/v1/messages', {
    recipient: ['27831230001', '27831230002'],
    message: 'Forced',
  });
  await s.step('messages.forceStatus (remote)', () =>
    remote.messages.forceStatus(forced.body?.id ?? 'missing', { status: 'failed', recipient: '27831230002' }),
  );
  await s.step('messages.wait (remote)', () =>
    remote.messages.wait(forced.body?.id ?? 'missing', { status: 'delivered', within: '1m' }),
  );
  await s.step('messages.wait never (in process)', () =>
    local.messages.wait(forced.body?.id ?? 'missing', { status: 'expired', within: '1m' }),
  );
  const world = await s.step('worlds.create with key (in process)', () =>
    local.worlds.create({
      account: { apiKey: 'pk_world', signingSecret: 'sk_world', webhookUrl: `${s.receiver.url}/world` },
    }),
  );
  // A world signs its webhooks with a secret of its own (drawn from the seed), or with the session's on a build before it.
  if (world.account?.webhookSigningSecret) s.receiver.secrets.push(world.account.webhookSigningSecret);
  const worldClock = world.clock?.id ?? 'missing';
  await s.signed(
    'POST /v1/messages (world)',
    'POST',
    '/v1/messages',
    { recipient: ['27838880000', '27831234567'], message: 'World message' },
    { auth: 'pk_world', signingSecret: 'sk_world' },
  );
  await s.step('clocks.get (in process)', () => local.clocks.get(worldClock));
  await s.step('clocks.advance (in process)', () => local.clocks.advance(worldClock, '10s'));
  await s.step('clocks.runUntilIdle (remote)', () => remote.clocks.runUntilIdle(worldClock));
  await s.step('messages.list world (remote)', () => remote.messages.list({ account: 'pk_world' }));
  await s.step('clocks.delete (remote)', () => remote.clocks.delete(worldClock));
  await s.step('accounts.get world deleted (remote)', () => remote.accounts.get('pk_world'));
  await s.step('clock.set (in process)', () => local.clock.set('2026-11-20T14:00:00Z'));
  await s.step('clock.configure speed (in process)', () => local.clock.configure({ speed: 2 }));
  await s.step('sign (in process)', () => local.sign({ recipient: ['27831234567'], message: 'Hi' }, 'pk_broke'));

  // The remote handle (connect()).
  await s.step('health (remote)', () => remote.health());
  await s.step('limits (remote)', () => remote.limits());
  await s.step('clock.state (remote)', () => remote.clock.state());
  await s.step('clock.advance 1m (remote)', () => remote.clock.advance('1m'));
  await s.step('clock.next (remote)', () => remote.clock.next());
  await s.step('clock.runUntilIdle (remote)', () => remote.clock.runUntilIdle({ limit: '1d' }));
  await s.step('accounts.create (remote)', () =>
    remote.accounts.create({ apiKey: 'pk_remote', signingSecret: 'sk_remote', balance: 3 }),
  );
  await s.step('accounts.update (remote)', () =>
    remote.accounts.update('pk_remote', { live: { webhookUrl: `${s.receiver.url}/fail` } }),
  );
  await s.signed(
    'POST /v1/messages (remote account, failing receiver)',
    'POST',
    '/v1/messages',
    { recipient: ['27831234567'], message: 'To a failing receiver' },
    { auth: 'pk_remote', signingSecret: 'sk_remote' },
  );
  await s.step('clock.advance 10s, failing receiver (remote)', () => remote.clock.advance('10s'));
  await s.step('webhooks.list failed (remote)', () => remote.webhooks.list({ state: 'failed' }));
  await s.step('accounts.update bad URL (remote)', () =>
    remote.accounts.update('pk_remote', { live: { webhookUrl: 'ftp://x' } }),
  );
  await s.step('accounts.delete (remote)', () => remote.accounts.delete('pk_remote'));
  await s.step('messages.list (remote)', () => remote.messages.list({ environment: 'sandbox' }));
  await s.step('messages.get (remote)', () => remote.messages.get(sentId));
  await s.step('messages.get unknown (remote)', () => remote.messages.get('no-such-id'));
  await s.step('replies.list (remote)', () => remote.replies.list());
  await s.step('webhooks.chaos (remote)', () => remote.webhooks.chaos());
  await s.step('scenario.get (remote)', () => remote.scenario.get());
  await s.step('scenario.bundled (remote)', () => remote.scenario.bundled());
  await s.step('scenario.useBundled (remote)', () => remote.scenario.useBundled('happy-path'));
  await s.step('scenario.set YAML (remote)', () =>
    remote.scenario.set('version: 1\nwebhooks:\n  - behaviour: duplicate\n    times: 3\n'),
  );
  await s.step('requests.find (remote)', () => remote.requests.find({ code: 'SIGNATURE_MISMATCH' }));
  await s.step('requests.count (remote)', () => remote.requests.count());
  await s.step('worlds.create (remote)', () => remote.worlds.create({ name: 'remote world' }));
  await s.step('clocks.list (remote)', () => remote.clocks.list());
  await s.step('sign (remote)', () => remote.sign({ recipient: ['27831234567'], message: 'Hi' }));

  // Delivery behaviours (no probability, so no random draw decides them), posting to the receiver.
  await s.step('scenario.set delivery behaviours (in process)', () =>
    local.scenario.set({
      version: 1,
      webhooks: [
        { behaviour: 'duplicate', match: { status: 'delivered' }, times: 2 },
        { behaviour: 'reorder', match: { recipient: '27835550002' } },
        { behaviour: 'late', after: '2h', match: { recipient: '27835550003' } },
        { behaviour: 'orphan', match: { status: 'submitted' }, count: 1 },
        { behaviour: 'answer-ignored', match: { recipient: '27835550004' } },
        { behaviour: 'duplicate', match: { status: 'reply' }, times: 3 },
      ],
    }),
  );
  await s.step('scenario.get behaviours (in process)', () => local.scenario.get());
  const behaved = await s.signed('POST /v1/messages (behaviours)', 'POST', '/v1/messages', {
    recipient: ['27835550002', '27835550003', '27835550004', '27835550005'],
    message: 'Behaviours',
    client_reference: 'diff-behaviours',
  });
  await s.step('clock.advance 1s, behaviours submitted (in process)', () => local.clock.advance('1s'));
  await s.step('clock.advance 5s, behaviours delivered (in process)', () => local.clock.advance('5s'));
  await s.step('clock.advance 1h, behaviours (remote)', () => remote.clock.advance('1h'));
  await s.step('clock.advance 2h, behaviours late (in process)', () => local.clock.advance('2h'));
  await s.step('webhooks.list behaviours (in process)', () =>
    local.webhooks.list({ message: behaved.body?.id ?? 'missing', limit: 1000 }),
  );
  await s.step('webhooks.list behaviours (remote)', () =>
    remote.webhooks.list({ message: behaved.body?.id ?? 'missing', limit: 1000 }),
  );
  await s.http(
    'GET /_emulator/webhooks?message={behaviours}',
    'GET',
    `/_emulator/webhooks?message=${behaved.body?.id}`,
    {
      auth: null,
    },
  );

  // The whole state, behaviours' log entries included.
  const snapshot = await s.step('snapshot export (remote)', () => remote.snapshot());
  await s.step('snapshot import (remote)', () => remote.restore(snapshot));
  await s.step('snapshot import (in process)', () => local.restore(snapshot));
  await s.step('snapshot import invalid (remote)', () => remote.restore({ version: 99 }));
  await s.step('snapshot export (in process)', () => local.snapshot());
  // A reply under the behaviours above (after the snapshot: the events it makes draw ids no snapshot call reads).
  const reply = await s.step('replies.inject under behaviours (remote)', () =>
    remote.replies.inject(behaved.body?.id ?? 'missing', { from: '27835550005', text: 'Got it' }),
  );
  await s.step('webhooks.list reply under behaviours (in process)', () =>
    local.webhooks.list({ message: reply.id ?? 'missing', limit: 1000 }),
  );

  // Receiver chaos: rates drawn from the seeded generator. Last, so what the draws decide touches no call before it.
  await s.step('scenario.set empty (in process)', () => local.scenario.set({ version: 1 }));
  await s.step('webhooks.setChaos (in process)', () =>
    local.webhooks.setChaos({ duplicateRate: 0.3, delayRate: 0.3, reorderRate: 0.3, delay: '1m' }),
  );
  await s.step('webhooks.chaos set (remote)', () => remote.webhooks.chaos());
  await s.http('GET /_emulator/webhooks/chaos (set)', 'GET', '/_emulator/webhooks/chaos', { auth: null });
  await s.step('webhooks.setChaos invalid (remote)', () => remote.webhooks.setChaos({ duplicateRate: 2 }));
  const chaotic = await s.signed('POST /v1/messages (chaos)', 'POST', '/v1/messages', {
    recipient: ['27835550006', '27835550007', '27835550008', '27835550009', '27835550010', '27835550011'],
    message: 'Chaos',
    client_reference: 'diff-chaos',
  });
  await s.step('clock.advance 1s, chaos submitted (in process)', () => local.clock.advance('1s'));
  await s.step('clock.advance 5s, chaos delivered (in process)', () => local.clock.advance('5s'));
  await s.step('clock.advance 2m, chaos held (remote)', () => remote.clock.advance('2m'));
  await s.step('webhooks.list chaos (in process)', () =>
    local.webhooks.list({ message: chaotic.body?.id ?? 'missing', limit: 1000 }),
  );
  await s.step('webhooks.setChaos off (remote)', () =>
    remote.webhooks.setChaos({ duplicateRate: 0, delayRate: 0, reorderRate: 0 }),
  );
  await s.step('webhooks.chaos off (in process)', () => local.webhooks.chaos());

  await s.step('reset one account (remote)', () => remote.reset({ account: key }));
  await s.step('reset (in process)', () => local.reset());
  await s.step('accounts.list after reset (remote)', () => remote.accounts.list());
}

/** One HTTP exchange with node:http (no connection kept: nothing outlives the session): status, content type, body. */
function exchange(url, method, headers, body) {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method, headers, agent: false }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const contentType = response.headers['content-type'] ?? null;
        let parsed = text;
        if (contentType?.includes('json') && text !== '') parsed = JSON.parse(text);
        resolve({ status: response.statusCode, contentType, body: parsed });
      });
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** A local webhook receiver: records each post (headers minus the date, body); a path ending in /fail answers 500. */
async function startReceiver() {
  let posts = [];
  /** The secrets a post may be signed with: the session's, then each world's as the session learns it. */
  const secrets = [sessionOptions.webhookSigningSecret];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const { date: _date, ...headers } = request.headers;
      // The signature covers the body, whose links carry the emulator's port: it is recorded as checked, not as its hex.
      if (secrets.some((secret) => headers['webhook-signature'] === signatureOf(secret, text)))
        headers['webhook-signature'] = '<HMAC-SHA256 of the body>';
      let body = text;
      try {
        body = JSON.parse(text);
      } catch {
        // A body that is not JSON is recorded as its text.
      }
      posts.push({ method: request.method, path: request.url, headers, body });
      response.statusCode = request.url?.endsWith('/fail') ? 500 : 200;
      response.end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    secrets,
    /** The posts since the last take, in a stable order: posts under way at once arrive in whichever order their sockets win. */
    take() {
      const taken = posts;
      posts = [];
      return taken
        .map((post) => JSON.stringify(post))
        .sort()
        .map((post) => JSON.parse(post));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The Webhook-Signature of a body signed with `secret` (docs/webhooks.md). */
function signatureOf(secret, body) {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** What a failed call threw, as the catalogue names it (an ApiError's code, status and description) or its message. */
function thrownView(error) {
  if (error && typeof error === 'object' && 'code' in error && 'status' in error)
    return { code: error.code, status: error.status, description: error.description, details: error.details };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** Any answer as JSON data (a Date becomes its ISO text; `undefined`, a call that answers nothing, becomes null). */
function asJson(value) {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** The legitimately random parts written as placeholders: the two ports and every wall-clock reading. */
function normalise(call, hosts) {
  let text = JSON.stringify(call, (name, value) => (wallClockKeys.includes(name) ? `<${name}>` : value));
  for (const [host, placeholder] of hosts) text = text.replaceAll(host, placeholder);
  return JSON.parse(text);
}
