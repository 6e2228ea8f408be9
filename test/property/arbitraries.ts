/** fast-check generators of hostile requests (methods, paths, headers, bodies) and the checks every answer must pass. */

import { METHODS } from 'node:http';
import fc from 'fast-check';
import { expect } from 'vitest';
import { errorCatalogue, signRequest } from '../../src/index.js';
import type { Emulator } from '../../src/index.js';
import { apiKey, basic, makeEmulator, origin, send as sendSigned, signingSecret } from '../support/api.js';
import { type RequestPath, fetchThrough } from '../support/requestPaths.js';

/** Fixed seed and a bounded number of runs: the same cases every time, and a suite that stays fast (FUZZ_SEED and FUZZ_RUNS explore further). */
export const runs = (numRuns: number) => ({
  seed: Number(process.env.FUZZ_SEED ?? 20261122),
  numRuns: Number(process.env.FUZZ_RUNS ?? numRuns),
  endOnFailure: true,
});

/** An emulator for fuzzing: manual clock, and webhook tries that end at once (nothing listens on port 9). */
export function fuzzEmulator(): Emulator {
  return makeEmulator({ webhookUrl: 'http://127.0.0.1:9/hook', webhookRetries: 0, webhookTimeout: '200ms' });
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const deep = (depth: number, open: string, close: string, inner = '1') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** Strings that have broken parsers and renderers before: escapes, surrogates, control characters, huge and deep. */
export const nastyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u0007\n\t',
    '\ud800',
    '\udfff',
    'a\ud83d',
    '😀',
    '\u202e',
    '%',
    '%00',
    '%E0%A4%A',
    '../..',
    '__proto__',
    'constructor',
    'NaN',
    '1e300',
  ),
  fc.integer({ min: 1, max: 50_000 }).map((n) => 'x'.repeat(n)),
);

const jsonLeaf = fc.oneof(
  nastyText,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(1e300, -1e300, Number.MAX_SAFE_INTEGER + 2, -0, 0.5),
);

/** JSON text: valid or not, deep, with duplicate and __proto__ keys, lone surrogate escapes and raw control characters. */
export const jsonText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.dictionary(nastyText, jsonLeaf, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{"a":1,"a":2}',
    '{"__proto__":{"polluted":true},"message":"x"}',
    '{"constructor":{"prototype":{"x":1}}}',
    '{"message":"\\ud800","recipient":["27831234567"]}',
    '{"recipient\\udc00":["27831234567"]}',
    '{"message":"a\u0001b"}',
    '{"message":',
    '{"a":1}}',
    '[1,2]',
    'null',
    '"text"',
    '1e99999',
    '\ufeff{"message":"bom"}',
  ),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `{"a":${deep(depth, '[', ']')}}`),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => deep(depth, '{"a":', '}')),
  fc.integer({ min: 0, max: 2000 }).map((size) => `{"message":"${'\\u0041'.repeat(size)}\\ud800"}`),
);

/** A send the API would mostly accept, to get past the early checks into the deeper ones. */
const sendFields = fc.record(
  {
    recipient: fc.oneof(
      fc.array(fc.constantFrom('27831234567', '27830000002', '27830000007', '+27831234567', '2783123456', ''), {
        maxLength: 4,
      }),
      nastyText,
      jsonLeaf,
    ),
    message: fc.oneof(fc.constantFrom('Hi', 'STOP', '€uro [x]'), nastyText, jsonLeaf),
    client_reference: fc.oneof(nastyText, jsonLeaf),
    schedule: fc.oneof(
      fc.constantFrom('2026-11-21T14:00:00+02:00', '9999-12-31T23:59', '10000-01-01T00:00:00Z', 'tomorrow', ''),
      nastyText,
    ),
  },
  { requiredKeys: [] },
);

/** A send that passes validation (schedules and outcome headers vary), so state does change between requests. */
const validSend = fc.record(
  {
    recipient: fc.uniqueArray(
      fc.constantFrom('27831234567', '27830000001', '27830000002', '27830000003', '27830000007', '27830000008'),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
    message: fc.constantFrom('Hi', 'STOP', 'Your code is 1234', '€uro [x] {y}', 'ü'.repeat(80)),
    client_reference: fc.constantFrom('ref-1', 'vip'),
    schedule: fc.constantFrom('2026-11-21T14:00:00+02:00', '2026-11-22T09:30:00Z'),
  },
  { requiredKeys: ['recipient', 'message'] },
);

/** A valid send whose JSON carries a lone surrogate escape in a value or a key, with some Signature header. */
const surrogateSend = fc
  .tuple(validSend, fc.constantFrom('\\ud800', '\\udfff', '\\ud83d'), fc.boolean())
  .map(([fields, escape, inKey]) => ({
    body: JSON.stringify(fields).replace(
      inKey ? '"message"' : /"message":"/,
      inKey ? `"message${escape}"` : `"message":"${escape}`,
    ),
    signature: '0'.repeat(64),
  }));

const signedSend = fc.oneof(sendFields, validSend).map((fields) => {
  let signature = 'none';
  try {
    signature = signRequest(fields as Record<string, unknown>, signingSecret);
  } catch {
    // A field the signer cannot encode (a lone surrogate): send it unsigned.
  }
  return { body: JSON.stringify(fields), signature };
});

export const bodyBytes = fc.oneof(
  jsonText,
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(
    new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    new Uint8Array([0xed, 0xa0, 0x80]),
    new Uint8Array([0xc0, 0xaf]),
  ),
  fc.string({ maxLength: 60 }).map((text) => `recipient[]=27831234567&message=${text}&message=dup&__proto__[x]=1`),
  fc.constant(`{"message":"${'x'.repeat(1_100_000)}"}`),
);

const methods = fc.oneof(
  fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'),
  fc
    .stringMatching(/^[A-Za-z]{1,8}$/)
    .filter((method) => !['CONNECT', 'TRACE', 'TRACK'].includes(method.toUpperCase())),
);

const segment = fc.oneof(
  fc.constantFrom(
    'messages',
    'balance',
    'x',
    '..',
    '%2e%2e',
    '%00',
    '%F0%9F%98%80',
    '%ED%A0%80',
    '%',
    'messages%2Fbalance',
    '',
    '1e300',
    'null',
  ),
  fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/),
);

const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom('page', 'limit', 'status', 'search', 'recipient', 'account', 'environment', 'since', 'x'),
      fc.oneof(
        nastyText.map(percentEncode),
        fc.constantFrom('0', '-1', '1e300', '999999999999', 'live', 'sandbox', '%'),
      ),
      { maxKeys: 3 },
    )
    .map(
      (entries) =>
        `?${Object.entries(entries)
          .map(([key, value]) => `${key}=${value}`)
          .join('&')}`,
    ),
);

/** encodeURIComponent, except that a lone surrogate becomes the raw bytes of one (which a URL can carry). */
function percentEncode(text: string): string {
  return text.isWellFormed() ? encodeURIComponent(text) : '%ED%A0%80';
}

const headerValue = fc.oneof(fc.stringMatching(/^[\x20-\x7e]{0,40}$/), fc.constantFrom('', ' ', 'a'.repeat(4000)));

/**
 * Requests to `prefixes` + `tails`: half wholly hostile, half plausible (a valid key, JSON, a signed
 * body of the usual fields) so that the deeper checks and successful changes are reached too.
 */
export function requestArbitrary(
  prefixes: readonly string[],
  tails: fc.Arbitrary<string>,
  plausibleTails: fc.Arbitrary<string>,
): fc.Arbitrary<FuzzRequest> {
  const hostile = fc.record({
    method: methods,
    prefix: fc.constantFrom(...prefixes),
    tail: tails,
    query,
    auth: fc.constantFrom('valid', 'wrong', 'garbage', 'none', 'bearer'),
    contentType: fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/yaml',
        'none',
        'application/json; charset=latin1',
      ),
      headerValue,
    ),
    outcome: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('delivered', 'submitted@1s,delivered@99999999999999999999d', 'lost', 'delivered@1e300'),
      headerValue,
    ),
    extra: fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,12}$/), headerValue, { maxKeys: 3 }),
    forwarded: fc.option(fc.constantFrom('https', 'http', 'javascript', 'a,b'), { nil: undefined }),
    body: fc.oneof(fc.constant(undefined), bodyBytes, signedSend, surrogateSend),
  });
  const plausible = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'),
    prefix: fc.constantFrom(...prefixes.slice(0, 2)),
    tail: plausibleTails,
    query,
    auth: fc.constant('valid'),
    contentType: fc.constant('application/json'),
    outcome: fc.option(fc.constantFrom('delivered', 'undelivered', 'submitted@2s,delivered@30d', 'blist'), {
      nil: undefined,
    }),
    extra: fc.constant({}),
    forwarded: fc.constant(undefined),
    body: fc.oneof(signedSend, surrogateSend, jsonText),
  });
  return fc
    .oneof(hostile, plausible)
    .map(({ method, prefix, tail, query: search, auth, contentType, outcome, extra, forwarded, body }) => {
      const headers: Record<string, string> = { ...extra };
      if (auth === 'valid') headers.authorization = basic(apiKey);
      else if (auth === 'wrong') headers.authorization = basic('pk_nobody');
      else if (auth === 'garbage') headers.authorization = 'Basic %%%';
      else if (auth === 'bearer') headers.authorization = 'Bearer x';
      if (contentType !== 'none') headers['content-type'] = contentType;
      if (outcome !== undefined) headers['x-emulator-outcome'] = outcome;
      if (forwarded !== undefined) headers['x-forwarded-proto'] = forwarded;
      const request: FuzzRequest = { method, path: `${prefix}${tail}${search}`, headers };
      if (body !== undefined && typeof body === 'object' && 'signature' in body) {
        request.body = body.body;
        if (body.signature !== 'none') headers.signature = body.signature;
      } else if (body !== undefined) request.body = body;
      return request;
    });
}

export const pathTail = fc
  .array(segment, { maxLength: 4 })
  .map((parts) => (parts.length === 0 ? '' : `/${parts.join('/')}`));

/**
 * Whether Node's HTTP parser refuses `request` itself, before either request path sees it (a method it does not know,
 * or headers past its 16 KiB limit): it answers 400 or 431, or drops the connection while the body is still sent.
 */
function nodeParserRefuses(request: FuzzRequest): boolean {
  let size = request.method.length + request.path.length + 64;
  for (const [name, value] of Object.entries(request.headers)) size += name.length + Buffer.byteLength(value) + 4;
  return !METHODS.includes(request.method) || size > 15 * 1024;
}

/** Sends a fuzzed request through `path` (hono's by default); undefined when the platform refuses to build or send it. */
export async function send(
  emulator: Emulator,
  request: FuzzRequest,
  path: RequestPath = 'hono',
): Promise<{ status: number; text: string } | undefined> {
  if (path === 'node' && nodeParserRefuses(request)) return undefined;
  let built: Request;
  try {
    const withBody = request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
    built = new Request(origin + request.path, {
      method: request.method,
      headers: request.headers,
      body: withBody ? request.body : undefined,
    });
  } catch {
    return undefined;
  }
  let response: Response;
  try {
    response = await fetchThrough(path, emulator, built);
  } catch (error) {
    // Node's HTTP client refuses some header values a web Request lets through, before anything is sent.
    if (path === 'node' && (error as NodeJS.ErrnoException).code === 'ERR_INVALID_CHAR') return undefined;
    throw error;
  }
  return { status: response.status, text: await response.text() };
}

/** What every answer must satisfy: no 5xx, and an error is a catalogued code with its documented status. */
export function expectWellFormed(request: FuzzRequest, answer: { status: number; text: string }): string | undefined {
  const where = `${request.method} ${request.path.slice(0, 120)}`;
  expect(answer.status, `${where} answered ${answer.status}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status < 400 || request.method === 'HEAD') return undefined;
  let code: unknown;
  try {
    const body = JSON.parse(answer.text) as { message?: unknown; error?: { message?: unknown } };
    code = body.message ?? body.error?.message;
  } catch {
    expect.fail(`${where} answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`);
  }
  expect(Object.keys(errorCatalogue), `${where}: ${String(code)} is not catalogued`).toContain(code);
  expect(answer.status, `${where}: ${String(code)} answered ${answer.status}`).toBe(
    errorCatalogue[code as keyof typeof errorCatalogue].status,
  );
  return code as string;
}

/** The state a rejected request must leave alone: balances, messages, replies, clock, random streams (the snapshot holds them all). */
export function stateOf(emulator: Emulator): string {
  return JSON.stringify(emulator.snapshot());
}

/** The emulator still answers an ordinary signed send after the fuzzing. */
export async function expectUsable(emulator: Emulator): Promise<void> {
  emulator.reset();
  // The shared helper fails the test unless the send answers 201.
  expect((await sendSigned(emulator, { recipient: ['27831234567'], message: 'still here' })).status).toBe('pending');
}
