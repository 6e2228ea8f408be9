/** check-receiver: scores a webhook receiver from outside, through the built CLI and the library, in bounded time. */

import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'selfsigned';
import { afterEach, expect, test } from 'vitest';
import { checkReceiver, receiverCheckNames } from '../../src/index.js';
import { type ReceiverKind, statefulReceiver as startStatefulReceiver } from '../support/statefulReceiver.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const open: { close(): void }[] = [];
afterEach(() => {
  for (const item of open.splice(0)) item.close();
});

type Handler = (payload: Record<string, unknown>, request: IncomingMessage, response: ServerResponse) => void;

/** A receiver on a free port that hands each post's JSON to `handle`; answers its URL. */
async function receiver(handle: Handler, server: Server = createServer()): Promise<string> {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => handle(JSON.parse(body || '{}') as Record<string, unknown>, request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => server.close() });
  const scheme = 'cert' in server ? 'https' : 'http';
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/sms`;
}

/** A correct receiver: stores what it is told once per event, answers 200 to everything, at once. */
const correct: Handler = (_, __, response) => response.writeHead(200).end();

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'check-receiver', ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const failing = (stdout: string): string[] => /checks failed: (.*)$/m.exec(stdout)?.[1]?.split(', ') ?? [];

test('a correct receiver passes every check: exit 0, a pass line per check', async () => {
  const url = await receiver(correct);
  const run = await cli([url, '--timeout', '2s']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  for (const name of receiverCheckNames) expect(run.stdout).toMatch(new RegExp(`^pass  ${name} `, 'm'));
  expect(run.stdout).toMatch(/every check passed \(11\)/);
});

test('a receiver that 500s on an id it has not seen as submitted first fails out-of-order and orphan, exit 1, naming them', async () => {
  const seen = new Set<unknown>();
  const url = await receiver((payload, _, response) => {
    if (payload.type === 'sms' && payload.status === 'submitted') seen.add(payload.id);
    response.writeHead(payload.type === 'sms' && !seen.has(payload.id) ? 500 : 200).end();
  });
  const run = await cli([url, '--timeout', '2s']);
  expect(run.code).toBe(1);
  expect(failing(run.stdout)).toEqual(['out-of-order', 'orphan']);
  expect(run.stdout).toMatch(
    /^FAIL {2}orphan +answered 500 to delivered of \S+ \(a duplicate, an unknown id or a state out of order must not be a server error\)$/m,
  );
  expect(run.stdout).toMatch(/a gateway: re-sent at once, 3 more times, then dropped and logged as failed/);
});

test('a receiver that stops answering while more than a few posts are open fails the burst, exit 1, within one timeout', async () => {
  let open = 0;
  const url = await receiver((_, __, response) => {
    open += 1;
    response.on('close', () => (open -= 1));
    if (open <= 4) setTimeout(() => response.writeHead(200).end(), 20);
  });
  const run = await cli([url, '--timeout', '500ms']);
  expect(run.code).toBe(1);
  expect(failing(run.stdout)).toEqual(['burst']);
  expect(run.stdout).toMatch(/^FAIL {2}burst +no answer within 500 ms \(--timeout\) to submitted of /m);
  // Bounded by one timeout, not 100: the burst's posts wait together (a hang would fail this test at its timeout).
  expect(JSON.stringify(run.stdout.match(/no answer within 500 ms/g))).toBe('["no answer within 500 ms"]');
}, 60_000);

test('hostile receivers end with a clear message and an exit status, never a hang or a stack trace', async () => {
  const closed = await receiver(correct);
  open.pop()?.close();
  const silent = createNetServer((socket: Socket) => open.push({ close: () => socket.destroy() }));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => silent.close() });
  const redirecting = await receiver((_, __, response) =>
    response.writeHead(302, { location: 'http://example.com/' }).end(),
  );
  const huge = await receiver((_, __, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(Buffer.alloc(10 * 1024 * 1024, 'x'));
  });
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', curve: 'P-256' });
  const selfSigned = await receiver(correct, createHttpsServer({ key: pems.private, cert: pems.cert }));

  const cases: [string, string, number, RegExp][] = [
    ['closed port', closed, 1, /nothing answered at \S+: ECONNREFUSED/],
    [
      'port that never answers',
      `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`,
      1,
      /nothing answered at \S+: no answer within 300 ms/,
    ],
    ['redirect', redirecting, 1, /answered 302: a redirect, which a gateway never follows/],
    ['10 MB answer', huge, 0, /every check passed/],
    ['self-signed https', selfSigned, 1, /TLS certificate is not trusted; to trust it, start with NODE_EXTRA_CA_CERTS/],
  ];
  for (const [what, url, code, message] of cases) {
    const run = await cli([url, '--timeout', '300ms', '--only', 'statuses,orphan']);
    expect({ what, code: run.code, stderr: run.stderr }).toEqual({ what, code, stderr: '' });
    expect(run.stdout, what).toMatch(message);
    expect(run.stdout, what).not.toMatch(/\n\s+at \S+ \(/);
  }
}, 60_000);

test('the same seed and instant give the same deliveries, byte for byte; posts carry the headers the emulator sends', async () => {
  const posts: string[][] = [[], []];
  let round = 0;
  const url = await receiver((payload, request, response) => {
    const signature = createHmac('sha256', 'whsec').update(JSON.stringify(payload)).digest('hex');
    expect(request.headers['webhook-signature']).toBe(signature);
    expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'x-emulator-attempt': '1' });
    posts[round]?.push(`${String(request.headers['x-emulator-event-id'])} ${JSON.stringify(payload)}`);
    response.writeHead(200).end();
  });
  const options = { seed: 'byte-for-byte', at: '2030-01-01T10:00:00Z', signingSecret: 'whsec', skip: ['burst'] };
  expect((await checkReceiver(url, options)).passed).toBe(true);
  round = 1;
  expect((await checkReceiver(url, options)).passed).toBe(true);
  expect(posts[1]).toEqual(posts[0]);
  expect(posts[0]?.length).toBeGreaterThan(20);
  round = 0;
  posts[0] = [];
  await checkReceiver(url, { ...options, seed: 'another' });
  expect(posts[0]).not.toEqual(posts[1]);
});

test('--json prints the report; --report writes a self-contained page with everything escaped', async () => {
  const url = `${await receiver(correct)}?<script>alert(1)</script>`;
  const page = join(mkdtempSync(join(tmpdir(), 'sms-check-')), 'report.html');
  const run = await cli([url, '--only', 'reply', '--json', '--report', page]);
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout) as { passed: boolean; checks: { name: string; passed: boolean }[] };
  expect(report).toMatchObject({ passed: true, checks: [{ name: 'reply', passed: true }] });
  const html = readFileSync(page, 'utf8');
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).not.toContain('<script>alert(1)</script>');
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
});

test('command line mistakes are usage errors (exit 2) saying what is wrong', async () => {
  const cases: [string[], RegExp][] = [
    [[], /check-receiver needs the receiver URL/],
    [
      ['http://127.0.0.1:1/', '--only', 'statuses,nonsense'],
      /"nonsense" is not a check; the checks are statuses, reply/,
    ],
    [['http://127.0.0.1:1/', '--timeout', 'soon'], /timeout "soon" is not a duration/],
    [['ftp://127.0.0.1/'], /a webhook URL is http:\/\/ or https:\/\//],
    [['http://127.0.0.1:1/', '--only', 'reply', '--skip', 'burst'], /give --only or --skip, not both/],
    [['http://127.0.0.1:1/', '--colour'], /unknown flag --colour for check-receiver/],
    [['http://127.0.0.1:1/', '--only', ','], /only names no check; the checks are statuses, reply/],
    [['http://127.0.0.1:1/', '--only='], /only names no check/],
  ];
  for (const [args, message] of cases) {
    const run = await cli(args);
    expect(run.code, args.join(' ')).toBe(2);
    expect(run.stderr).toMatch(message);
  }
  const help = await cli(['--help']);
  expect(help.stdout).toContain(`Checks: ${receiverCheckNames.join(', ')}.`);
});

test('an endless answer is read only up to a bound: its status counts, long before the timeout', async () => {
  const url = await receiver((_, __, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(16 * 1024, 'x');
    // Writes for as long as the connection is open: unbounded reading would end only at the timeout, as a failure.
    const more = (): void => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', more);
    };
    more();
  });
  const report = await checkReceiver(url, { only: ['orphan'], timeout: '10m' });
  expect(report.checks[0]).toMatchObject({ passed: true, answers: [{ status: 200, cutAfterBytes: 65_536 }] });
});

test('a receiver that closes the connection mid-answer fails the delivery with that reason, in one line', async () => {
  const url = await receiver((_, __, response) => {
    response.writeHead(200, { 'content-length': '100' });
    response.write('partial');
    setImmediate(() => response.destroy());
  });
  const run = await cli([url, '--only', 'orphan']);
  expect(run).toMatchObject({ code: 1, stderr: '' });
  expect(run.stdout).toMatch(/^FAIL {2}orphan +connection closed mid-response to delivered of \S+/m);
});

test('a password in the URL is masked in the table, the JSON and the page; a report that cannot be written keeps the table', async () => {
  const url = (await receiver(correct)).replace('http://', 'http://user:hunter2@');
  const run = await cli([url, '--only', 'reply', '--report', '/nonexistent-dir/report.html']);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^sms-emulator: cannot write \/nonexistent-dir\/report.html: ENOENT/);
  expect(run.stdout).toMatch(/^check-receiver http:\/\/user:\*\*\*@127\.0\.0\.1:\d+\/hooks\/sms /);
  expect(run.stdout).toMatch(/^pass {2}reply /m);
  expect(run.stdout).not.toContain('hunter2');
  const report = await checkReceiver(url, { only: ['reply'] });
  expect(report.url).toMatch(/^http:\/\/user:\*\*\*@127\.0\.0\.1/);
});

test('a 4xx to a duplicate or to an outcome before submitted passes (never a 5xx is the rule), and says a gateway re-sends', async () => {
  const seen = new Set<string>();
  const url = await receiver((payload, request, response) => {
    const event = String(request.headers['x-emulator-event-id']);
    const refused = seen.has(event) || (payload.status === 'delivered' && !seen.has(`submitted ${String(payload.id)}`));
    seen.add(event);
    if (payload.status === 'submitted') seen.add(`submitted ${String(payload.id)}`);
    response.writeHead(refused ? 409 : 200).end();
  });
  const report = await checkReceiver(url, { only: ['duplicate', 'out-of-order'] });
  expect(
    report.checks.map((check) => [check.name, check.passed, check.answers.map((answer) => answer.status)]),
  ).toEqual([
    ['duplicate', true, [200, 200, 409]],
    ['out-of-order', true, [409, 200]],
  ]);
  expect(report.checks[0]?.reason).toMatch(
    /; a gateway still re-sends anything but 200: re-sent at once, 3 more times/,
  );
  expect(report.checks[0]?.gatewayNext).toBe('re-sent at once, 3 more times, then dropped and logged as failed');
});

/** A receiver with a state hook (test/support/statefulReceiver.ts), closed after the test. */
async function statefulReceiver(kind: ReceiverKind): Promise<{ url: string; state: string }> {
  const made = await startStatefulReceiver(kind);
  open.push({ close: () => void made.close() });
  return made;
}

test('with a state hook, a receiver that de-duplicates and keeps the newest status passes answers and state', async () => {
  const { url, state } = await statefulReceiver('correct');
  const run = await cli([url, '--state', state, '--timeout', '2s']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/every check passed \(11\), answers and state\n$/);
  expect(run.stdout).not.toContain('not seen');
  const report = await checkReceiver(url, { state, only: ['duplicate', 'out-of-order', 'burst'] });
  expect(report.unseen).toEqual([]);
  const [duplicate, outOfOrder, burst] = report.checks;
  expect(duplicate?.state).toEqual([
    {
      message: expect.any(String),
      expected: { status: 'delivered', notifications: 2 },
      held: { status: 'delivered', notifications: 2 },
      passed: true,
    },
  ]);
  expect(outOfOrder?.state?.[0]).toMatchObject({ held: { status: 'delivered' }, passed: true });
  expect(burst?.state).toHaveLength(100);
});

test('a receiver that processes a re-sent notification twice fails the duplicate check through its state hook, naming the sequence', async () => {
  const { url, state } = await statefulReceiver('counts-every-post');
  const run = await cli([url, '--state', state, '--timeout', '2s']);
  expect(run.code).toBe(1);
  expect(failing(run.stdout)).toEqual(['duplicate']);
  expect(run.stdout).toMatch(
    /^FAIL {2}duplicate +after submitted, delivered, delivered again \(same event id\) of \S+, the receiver counts 3 notifications, expected 2: it processed the re-sent notification a second time; a gateway re-sends whenever an answer is lost, so de-duplicate on X-Emulator-Event-Id$/m,
  );
});

test('a receiver that lets an older status overwrite a newer one fails the out-of-order check through its state hook, naming the sequence', async () => {
  const { url, state } = await statefulReceiver('last-wins');
  const report = await checkReceiver(url, { state, only: ['out-of-order', 'statuses'] });
  expect(report.checks.map((check) => [check.name, check.passed])).toEqual([
    ['statuses', true],
    ['out-of-order', false],
  ]);
  expect(report.checks[1]?.reason).toMatch(
    /^after delivered, submitted of \S+, the receiver holds status "submitted", expected "delivered": an older status that arrived later overwrote the newer one \(order by the status, not by arrival\)$/,
  );
  expect(report.checks[1]?.state?.[0]).toMatchObject({
    expected: { status: 'delivered', notifications: 2 },
    held: { status: 'submitted', notifications: 2 },
    passed: false,
  });
});

test('without a state hook the verdict says the answers alone were checked and what they cannot show, pointing to the delivery behaviours; --json too', async () => {
  const url = await receiver(correct);
  const run = await cli([url, '--timeout', '2s']);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/every check passed \(11\), on the answers alone\n/);
  expect(run.stdout).toMatch(
    /^not seen: whether a re-sent notification \(same event id\) was processed twice: .*the duplicate delivery behaviour \(docs\/webhooks\.md#delivery-behaviours\)$/m,
  );
  expect(run.stdout).toMatch(
    /^not seen: whether an older status that arrived late \(submitted after delivered\) overwrote the newer one; give a state hook \(--state, .*the reorder delivery behaviour/m,
  );
  const json = await cli([url, '--json', '--only', 'duplicate,out-of-order']);
  const report = JSON.parse(json.stdout) as { unseen: string[]; state?: string };
  expect(report.state).toBeUndefined();
  expect(report.unseen).toHaveLength(2);
  expect(report.unseen.join('\n')).toMatch(/duplicate delivery behaviour[\s\S]*reorder delivery behaviour/);
  // Only what the checks that ran could have shown: a reply says nothing of a message's state.
  expect((await checkReceiver(url, { only: ['reply'] })).unseen).toEqual([]);
});

test('a state hook that does not count notifications leaves the duplicate unseen, and says so', async () => {
  const { url, state } = await statefulReceiver('uncounted');
  const report = await checkReceiver(url, { state, only: ['duplicate', 'out-of-order'] });
  expect(report.passed).toBe(true);
  expect(report.unseen).toEqual([
    expect.stringMatching(/processed twice: .*have the state hook answer "notifications"/),
  ]);
});

test('a state hook that holds nothing, or answers something other than a state, fails the check saying what it answered', async () => {
  const empty = await receiver((_, request, response) =>
    response.writeHead(request.method === 'GET' ? 404 : 200).end(),
  );
  const nothing = await checkReceiver(empty, { state: empty.replace('/hooks/sms', '/sms/{id}'), only: ['late'] });
  expect(nothing.checks[0]?.reason).toMatch(
    /^after submitted, delivered of \S+, the state hook answered 404: the receiver holds nothing for it \(it answered 200 to them\)$/,
  );
  const odd = await receiver((_, request, response) =>
    response.writeHead(200).end(request.method === 'GET' ? '["delivered"]' : ''),
  );
  const shape = await checkReceiver(odd, { state: `${odd}?id={id}`, only: ['late'] });
  expect(shape.checks[0]?.reason).toMatch(/the state hook answered \["delivered"\]: a state is \{"status"/);
});

test('a state hook template that names no message, or is not http(s), is a usage error', async () => {
  const bad: [string, RegExp][] = [
    ['http://127.0.0.1:1/sms', /state "http:\/\/127.0.0.1:1\/sms" names no message: put \{id\}/],
    ['ftp://127.0.0.1/{id}', /a state hook is http:\/\/ or https:\/\//],
  ];
  for (const [state, message] of bad) {
    const run = await cli(['http://127.0.0.1:1/', '--state', state]);
    expect(run.code, state).toBe(2);
    expect(run.stderr).toMatch(message);
  }
});

test('the page says what was not seen without a state hook, and shows each state reading with one', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'sms-check-'));
  const blind = await cli([await receiver(correct), '--only', 'duplicate', '--report', join(folder, 'blind.html')]);
  expect(blind.code).toBe(0);
  const blindPage = readFileSync(join(folder, 'blind.html'), 'utf8');
  expect(blindPage).toContain('every check passed, on the answers alone');
  expect(blindPage).toMatch(
    /<h2>Not seen<\/h2><ul><li>whether a re-sent notification \(same event id\) was processed twice/,
  );
  const { url, state } = await statefulReceiver('counts-every-post');
  const seeing = await cli([url, '--state', state, '--only', 'duplicate', '--report', join(folder, 'state.html')]);
  expect(seeing.code).toBe(1);
  const statePage = readFileSync(join(folder, 'state.html'), 'utf8');
  expect(statePage).toMatch(
    /<summary>1 states read<\/summary><ul><li>\S+: expected delivered after 2, held delivered after 3<\/li>/,
  );
  expect(statePage).not.toContain('Not seen');
});
