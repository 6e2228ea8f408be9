/** Test helpers: an emulator on a manual clock, and a small caller that signs sends like a client would. */

import { createEmulator, signRequest } from '../../src/index.js';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { type RequestPath, fetchThrough } from './requestPaths.js';

export const apiKey = 'pk_test_sms_emulator';
export const signingSecret = 'sk_test_sms_emulator';
/** 12:00 in Johannesburg. */
export const startTime = '2026-11-21T10:00:00Z';
export const origin = 'http://emulator.test';

export type Environment = 'live' | 'sandbox';
export const prefix = (environment: Environment): string => (environment === 'live' ? '/v1' : '/sandbox/v1');

export function makeEmulator(options: EmulatorOptions = {}): Emulator {
  // It answers to the helpers' own address over a socket too (the Host check admits loopback names only by default).
  return createEmulator({
    clock: 'manual',
    seed: 'test-seed',
    startTime,
    allowedHosts: [new URL(origin).hostname],
    ...options,
  });
}

export function basic(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is, with the given content type). */
  raw?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sign the JSON body with this secret (default: the default account's); false sends no Signature. */
  sign?: string | false;
  key?: string | false;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

let requestPath: RequestPath = 'hono';

/** Which request path `call` (and `send`, `balance`) go through from now on; hono's unless a suite runs through both. */
export function useRequestPath(path: RequestPath): void {
  requestPath = path;
}

export async function call(
  emulator: Emulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== false) headers.authorization ??= basic(options.key ?? apiKey);
  let body: string | Uint8Array | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
    if (options.sign !== false && !('signature' in headers)) {
      headers.signature = signRequest(options.body as Record<string, unknown>, options.sign ?? signingSecret);
    }
  }
  const response = await fetchThrough(requestPath, emulator, new Request(origin + path, { method, headers, body }));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Sends (or schedules) a message and returns the created message object; fails the test if not 201. */
export async function send(
  emulator: Emulator,
  fields: Record<string, unknown>,
  environment: Environment = 'live',
  key = apiKey,
  secret = signingSecret,
): Promise<any> {
  const reply = await call(emulator, 'POST', `${prefix(environment)}/messages`, { body: fields, key, sign: secret });
  if (reply.status !== 201) throw new Error(`send failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export async function balance(emulator: Emulator, environment: Environment = 'live', key = apiKey): Promise<number> {
  return (await call(emulator, 'GET', `${prefix(environment)}/messages/balance`, { key })).body.balance;
}

/** An ISO schedule `minutes` after the test start time, in +02:00. */
export function scheduleIn(minutes: number): string {
  const local = new Date(Date.parse(startTime) + minutes * 60_000 + 2 * 3_600_000).toISOString().slice(0, 16);
  return `${local}+02:00`;
}

/** A control API call (`/_emulator` + path) with a JSON body, no API key. */
export function control(
  emulator: Emulator,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return call(emulator, method, `/_emulator${path}`, {
    raw: body === undefined ? undefined : JSON.stringify(body),
    key: false,
    headers,
  });
}

/** A control transport over `emulator.fetch`, as a remote handle would use over HTTP; an error status throws its code. */
export function fetchTransport(emulator: Emulator) {
  return async (method: string, path: string, query: Record<string, string>, body: unknown): Promise<unknown> => {
    const search = new URLSearchParams(query).toString();
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const response = await emulator.fetch(
      new Request(`${origin}/_emulator${path}${search ? `?${search}` : ''}`, { method, body: text }),
    );
    const answer = await response.text();
    const json = answer === '' ? undefined : JSON.parse(answer);
    if (response.status >= 400) throw new Error(`${json.message}: ${json.description}`);
    return json;
  };
}
