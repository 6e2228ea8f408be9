/**
 * The recording proxy keeps the emulator's own guards: its Host check, its Origin check on the webhook address, a
 * bounded wait for the provider, a bounded answer it stops reading when the client leaves, and no hop-by-hop or proxy
 * header passed on either way.
 */

import { mkdtempSync, readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type Recorder, startRecorder } from '../../src/parity/recorder.js';
import { parseTranscript } from '../../src/parity/transcript.js';

const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-record-guards-'));
const servers: Server[] = [];
let recorder: Recorder | undefined;

afterEach(async () => {
  await recorder?.close();
  recorder = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local server run by `handle`, its origin, and the requests it got. */
async function serve(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ origin: string; got: IncomingMessage[] }> {
  const got: IncomingMessage[] = [];
  const server = createServer((incoming, outgoing) => {
    got.push(incoming);
    handle(incoming, outgoing);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

const answersOk = (_: IncomingMessage, response: ServerResponse) => response.end('{}');

/** One request over a socket with exactly these headers (fetch may not set Host): status, headers and body. */
function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The transcript's lines once the recorder is closed. */
async function lines(out: string): Promise<{ type: string; status?: number; bodyText?: string }[]> {
  await recorder?.close();
  recorder = undefined;
  return readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((row) => JSON.parse(row) as { type: string });
}

test('a web page posting to the webhook address from another origin is refused with ORIGIN_NOT_ALLOWED, neither relayed nor recorded', async () => {
  const relay = await serve(answersOk);
  const out = join(dir, 'origin.jsonl');
  recorder = await startRecorder({ upstream: 'http://127.0.0.1:9', out, relay: relay.origin });
  const forged = JSON.stringify({ type: 'sms-reply', recipient: '27831234567', message: 'forged' });
  const pages: Record<string, string>[] = [{ origin: 'https://attacker.example' }, { 'sec-fetch-site': 'cross-site' }];
  for (const headers of pages) {
    const refused = await exchange(recorder.webhookUrl, 'POST', { 'content-type': 'text/plain', ...headers }, forged);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ message: 'ORIGIN_NOT_ALLOWED' });
  }
  // The provider's own post (no Origin) still goes through.
  expect((await exchange(recorder.webhookUrl, 'POST', { 'content-type': 'application/json' }, '{}')).status).toBe(200);
  expect(relay.got).toHaveLength(1);
  expect((await lines(out)).filter((line) => line.type === 'webhook')).toHaveLength(1);
});

test('a request whose Host is not one of the recorder names (DNS rebinding) is refused with HOST_NOT_ALLOWED and never forwarded', async () => {
  const upstream = await serve(answersOk);
  const out = join(dir, 'host.jsonl');
  recorder = await startRecorder({ upstream: upstream.origin, out });
  const port = new URL(recorder.url).port;
  const rebound = await exchange(`${recorder.url}/v1/messages/balance`, 'GET', { host: `rebind.example:${port}` });
  expect(rebound.status).toBe(403);
  expect(JSON.parse(rebound.body)).toMatchObject({ message: 'HOST_NOT_ALLOWED' });
  const posted = await exchange(recorder.webhookUrl, 'POST', { host: `rebind.example:${port}` }, '{}');
  expect(posted.status).toBe(403);
  expect(upstream.got).toHaveLength(0);
  // Its own names still pass.
  expect((await exchange(`${recorder.url}/v1/messages/balance`, 'GET', { host: `localhost:${port}` })).status).toBe(
    200,
  );
  expect(upstream.got).toHaveLength(1);
  expect((await lines(out)).map((line) => line.type)).toEqual(['header', 'request', 'answer']);
});

test('a provider that does not answer within the upstream timeout is answered 504, recorded as 504, and the recorder closes', async () => {
  const upstream = await serve(() => undefined);
  const out = join(dir, 'timeout.jsonl');
  recorder = await startRecorder({ upstream: upstream.origin, out, upstreamTimeoutMs: 200 });
  const answer = await exchange(`${recorder.url}/v1/messages/balance`, 'GET', {});
  expect(answer.status).toBe(504);
  expect(answer.body).toContain('timed out after 200ms (--upstream-timeout)');
  const recorded = await lines(out);
  expect(recorded.find((line) => line.type === 'answer')).toMatchObject({
    status: 504,
    bodyText: expect.stringContaining('timed out after 200ms'),
  });
});

/** An upstream that answers a body without end, a chunk per turn, until its connection closes; `closed` resolves then. */
async function endlessUpstream(): Promise<{ origin: string; started: Promise<void>; closed: Promise<number> }> {
  let started!: () => void;
  let closed!: (sent: number) => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const closedPromise = new Promise<number>((resolve) => (closed = resolve));
  const { origin } = await serve((_, response) => {
    let sent = 0;
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const more = (): void => {
      if (response.destroyed) return;
      sent += chunk.byteLength;
      if (response.write(chunk)) setImmediate(more);
      else response.once('drain', more);
    };
    response.on('close', () => closed(sent));
    started();
    more();
  });
  return { origin, started: startedPromise, closed: closedPromise };
}

test('an endless answer is cut at the size limit: the app gets 502, the transcript says so, and the provider connection is closed', async () => {
  const upstream = await endlessUpstream();
  const out = join(dir, 'endless.jsonl');
  recorder = await startRecorder({ upstream: upstream.origin, out, maxBodySize: 256 * 1024 });
  const answer = await exchange(`${recorder.url}/v1/messages`, 'GET', {});
  expect(answer.status).toBe(502);
  expect(answer.body).toContain('body over 262144 bytes');
  // The read stopped near the limit, not after megabytes more.
  expect(await upstream.closed).toBeLessThan(4 * 1024 * 1024);
  expect((await lines(out)).find((line) => line.type === 'answer')).toMatchObject({ status: 502 });
});

test('when the app leaves before the answer, the recorder stops reading the provider answer at once', async () => {
  const upstream = await endlessUpstream();
  const out = join(dir, 'left.jsonl');
  // Neither the timeout nor the size limit would stop it within the test.
  recorder = await startRecorder({ upstream: upstream.origin, out, maxBodySize: 2 ** 40 });
  const leaving = request(`${recorder.url}/v1/messages`);
  leaving.on('error', () => undefined);
  leaving.end();
  await upstream.started;
  leaving.destroy();
  expect(await upstream.closed).toBeGreaterThan(0);
});

test('hop-by-hop headers, those named in Connection, and Proxy-Authorization / Proxy-Authenticate are not passed on either way', async () => {
  const upstream = await serve((_, response) => {
    response.writeHead(200, {
      'content-type': 'application/json',
      connection: 'x-answer-hop',
      'x-answer-hop': 'one hop only',
      'proxy-authenticate': 'Basic realm="upstream proxy"',
      trailer: 'x-checksum',
      'x-end-to-end': 'kept',
    });
    response.end('{"balance":1}');
  });
  const relay = await serve(answersOk);
  const out = join(dir, 'hops.jsonl');
  recorder = await startRecorder({ upstream: upstream.origin, out, relay: relay.origin });
  const hopHeaders = {
    connection: 'x-request-hop',
    'x-request-hop': 'one hop only',
    'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
    te: 'trailers',
    'x-end-to-end': 'kept',
  };
  const answer = await exchange(`${recorder.url}/v1/messages/balance`, 'GET', hopHeaders);
  expect(answer.status).toBe(200);
  expect(answer.headers['x-end-to-end']).toBe('kept');
  for (const name of ['x-answer-hop', 'proxy-authenticate', 'trailer']) expect(answer.headers).not.toHaveProperty(name);
  await exchange(recorder.webhookUrl, 'POST', { 'content-type': 'application/json', ...hopHeaders }, '{}');
  for (const received of [upstream.got[0]!, relay.got[0]!]) {
    expect(received.headers['x-end-to-end']).toBe('kept');
    for (const name of ['x-request-hop', 'proxy-authorization', 'te'])
      expect(received.headers).not.toHaveProperty(name);
  }
});

test('an answer nested deeper than a transcript is read is recorded as text, so the transcript reads back', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const upstream = await serve((_, response) => response.end(deep));
  const out = join(dir, 'deep.jsonl');
  recorder = await startRecorder({ upstream: upstream.origin, out });
  expect((await exchange(`${recorder.url}/v1/messages`, 'GET', {})).body).toBe(deep);
  await recorder.close();
  recorder = undefined;
  const { events } = parseTranscript(readFileSync(out, 'utf8'));
  expect(events.find((event) => event.type === 'answer')).toMatchObject({ bodyText: deep });
});

/** A port the system has just handed out and taken back: the recorder listens there, so its options can name it. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test('an upstream or relay that is the recorder itself, under any name, is never sent to: one try each, no loop', async () => {
  const port = await freePort();
  const out = join(dir, 'itself.jsonl');
  recorder = await startRecorder({
    upstream: `http://127.0.0.1:${port}`,
    relay: `http://[::ffff:127.0.0.1]:${port}/_record/webhook`,
    out,
    port,
    upstreamTimeoutMs: 5_000,
  });
  const relayed = await exchange(recorder.webhookUrl, 'POST', { 'content-type': 'application/json' }, '{"id":"a"}');
  expect(relayed.status).toBe(502);
  expect(relayed.body).toContain('is this emulator itself');
  const forwarded = await exchange(`${recorder.url}/v1/messages/balance`, 'GET', {});
  expect(forwarded.body).toContain('is this emulator itself');
  // Relayed to itself, the one post came back as a second and a third without end (1,200 sockets in 5 s).
  expect((await lines(out)).map((line) => line.type)).toEqual([
    'header',
    'webhook',
    'webhook-answer',
    'request',
    'answer',
  ]);
});

test('a request body over the size limit is answered 413 and neither forwarded nor recorded; closing twice writes the transcript once', async () => {
  const upstream = await serve(answersOk);
  const out = join(dir, 'large.jsonl');
  recorder = await startRecorder({ upstream: upstream.origin, out, maxBodySize: 1024 });
  const answer = await exchange(`${recorder.url}/v1/messages`, 'POST', {}, 'x'.repeat(64 * 1024));
  expect(answer.status).toBe(413);
  expect(answer.body).toContain('body over 1024 bytes');
  expect(upstream.got).toHaveLength(0);
  const closing = recorder;
  recorder = undefined;
  await Promise.all([closing.close(), closing.close()]);
  expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1);
});
