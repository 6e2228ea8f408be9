/**
 * Reading request bodies within the size limit and decoding them (JSON or form), with the API's JSON_* errors for bad
 * ones; and what the request journal keeps of a body, for the hono path's adapter and middleware alike.
 */

import type { Context, MiddlewareHandler } from 'hono';
import { ApiError, errorCatalogue } from '../domain/errors.js';
import { maxJsonDepth, nestedTooDeep, scanJson } from '../domain/jsonScan.js';
import type { RequestFields } from '../domain/signing.js';
import { journalBodyLimit } from '../journal/requestJournal.js';
import { requestChunks } from './adapters/requestChunks.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The largest body in bytes this request may carry (set by bodyLimit, read by readBody when not given one). */
    maxBodySize: number;
    /** The error readBody gives a body over that limit (PAYLOAD_TOO_LARGE, or a path's own). */
    bodyTooLarge: (maxBytes: number) => ApiError;
    /** The body readBody read, kept for the request journal. */
    bodyBytes: Uint8Array;
  }
}

export function tooLarge(maxBytes: number): ApiError {
  return new ApiError(
    'PAYLOAD_TOO_LARGE',
    `The body is larger than ${maxBytes} bytes (the maxBodySize option); nothing was changed.`,
  );
}

/** A snapshot import over its own limit: the maxSnapshotSize option, not maxBodySize. */
export function snapshotTooLarge(maxBytes: number): ApiError {
  return new ApiError(
    'SNAPSHOT_TOO_LARGE',
    `The snapshot is larger than ${maxBytes} bytes (the maxSnapshotSize option); nothing was changed.`,
  );
}

/** Refuses a body whose Content-Length is over the limit before a byte of it is read. */
export function checkDeclaredLength(declared: string | undefined, maxBytes: number, refuse = tooLarge): void {
  if (declared !== undefined && Number(declared) > maxBytes) throw refuse(maxBytes);
}

/** A path's own body limit and the error over it (a snapshot import is larger than any other request by nature). */
export interface PathLimit {
  maxBytes: number;
  refuse: (maxBytes: number) => ApiError;
}

/** checkDeclaredLength for the routes hono serves, handing the limit (the path's own, if it has one) to readBody. */
export function bodyLimit(maxBytes: number, byPath: Readonly<Record<string, PathLimit>> = {}): MiddlewareHandler {
  return async (c, next) => {
    const own = byPath[c.req.path];
    const limit = own?.maxBytes ?? maxBytes;
    const refuse = own?.refuse ?? tooLarge;
    checkDeclaredLength(c.req.header('content-length'), limit, refuse);
    c.set('maxBodySize', limit);
    c.set('bodyTooLarge', refuse);
    await next();
  };
}

/**
 * The request body, refused with PAYLOAD_TOO_LARGE as soon as it passes the limit. A body with a
 * Content-Length (already checked) is read in one go, which keeps Node's fast path; a chunked one is
 * counted chunk by chunk, so an endless stream is cut after the limit instead of being buffered.
 */
export async function readBody(
  c: Context,
  maxBytes = c.get('maxBodySize') ?? Number.POSITIVE_INFINITY,
): Promise<Uint8Array> {
  const bytes = await readWithinLimit(c, maxBytes);
  c.set('bodyBytes', bytes);
  return bytes;
}

async function readWithinLimit(c: Context, maxBytes: number): Promise<Uint8Array> {
  const refuse = c.get('bodyTooLarge') ?? tooLarge;
  // Checked before touching `raw.body`: reading that property makes @hono/node-server wrap the socket in a
  // full web Request and stream, which then also serves arrayBuffer() (profiled: a third of a send's time).
  if (c.req.header('content-length') !== undefined) {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    // A Request built in-process may declare less than it carries.
    if (bytes.byteLength > maxBytes) throw refuse(maxBytes);
    return bytes;
  }
  const stream = c.req.raw.body;
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw refuse(maxBytes);
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

/**
 * The request body chunk by chunk as it arrives, never joined (a snapshot import parses it as it comes), refused with
 * the path's error as soon as it passes the limit; a refusal stops reading it.
 */
export async function* bodyChunks(
  c: Context,
  maxBytes = c.get('maxBodySize') ?? Number.POSITIVE_INFINITY,
): AsyncGenerator<Uint8Array> {
  const refuse = c.get('bodyTooLarge') ?? tooLarge;
  let size = 0;
  for await (const chunk of requestChunks(c)) {
    size += chunk.byteLength;
    if (size > maxBytes) throw refuse(maxBytes);
    yield chunk;
  }
}

/**
 * A body's chunks as one array of `size` bytes: one chunk as it is, several copied into a fresh array, which the
 * journal may keep (Buffer.concat would take a small one from the shared pool and keep the whole slab alive).
 */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError('JSON_MALFORMED_UTF8');
  }
}

/** API request fields from a JSON or form body; a bad body throws the JSON_* error the real service answers. */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): RequestFields {
  const text = decodeText(bytes);
  if (contentType?.startsWith('application/x-www-form-urlencoded')) return decodeForm(text);
  if (text.trim() === '') return {};
  const value = parseJson(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(
      'JSON_UNKNOWN',
      `The body is JSON ${Array.isArray(value) ? 'array' : typeof value === 'object' ? 'null' : typeof value} but must be an object of fields.`,
    );
  }
  return value as RequestFields;
}

/**
 * A control API body: any JSON value, `{}` when blank. The same checks as the API (UTF-8, depth,
 * lone surrogates) answer CONTROL_INVALID_REQUEST, the control API's one code for bad input.
 */
export function decodeControlBody(bytes: Uint8Array): unknown {
  try {
    const text = decodeText(bytes);
    return text.trim() === '' ? {} : parseJson(text);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError('CONTROL_INVALID_REQUEST', `The body is not valid JSON: ${error.description}`);
  }
}

/** Control body text (a scenario): UTF-8 or CONTROL_INVALID_REQUEST. */
export function decodeControlText(bytes: Uint8Array): string {
  try {
    return decodeText(bytes);
  } catch {
    throw new ApiError('CONTROL_INVALID_REQUEST', 'The body is not valid UTF-8.');
  }
}

/** JSON.parse with the real service's refusals: syntax, depth and unpaired surrogates each get their JSON_* code. */
function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const problem = syntaxProblem(text);
    throw new ApiError(problem, `${errorCatalogue[problem].description} (${(error as Error).message})`);
  }
  if (nestedTooDeep(text)) {
    throw new ApiError(
      'JSON_EXCEEDED',
      `Maximum stack depth exceeded: the JSON is nested deeper than ${maxJsonDepth} levels.`,
    );
  }
  // UTF-8 input holds no lone surrogate, so only a \u escape can make one: skip the walk without one.
  if (text.includes('\\u') && hasLoneSurrogate(value)) {
    throw new ApiError(
      'JSON_MALFORMED_UTF8',
      'Single unpaired UTF-16 surrogate in unicode escape: a string (or a field name) holds half of a \\uD83D\\uDE00 pair.',
    );
  }
  return value;
}

/** True when any string or key in the parsed value is not well-formed UTF-16 (walked without recursion). */
export function hasLoneSurrogate(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (!value.isWellFormed()) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (!key.isWellFormed()) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

function decodeForm(text: string): RequestFields {
  const fields: Record<string, string | string[]> = {};
  for (const [rawName, value] of new URLSearchParams(text)) {
    const isList = rawName.endsWith('[]');
    const name = isList ? rawName.slice(0, -2) : rawName;
    const existing = fields[name];
    if (existing === undefined) fields[name] = isList ? [value] : value;
    else fields[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return fields;
}

function syntaxProblem(
  text: string,
): 'JSON_ERROR_CTRL_CHAR' | 'JSON_MALFORMED' | 'JSON_INVALID_SYNTAX' | 'JSON_EXCEEDED' {
  const scan = scanJson(text);
  if (scan.controlChar !== undefined) return 'JSON_ERROR_CTRL_CHAR';
  if (scan.mismatch) return 'JSON_MALFORMED';
  if (scan.depth > maxJsonDepth) return 'JSON_EXCEEDED';
  return 'JSON_INVALID_SYNTAX';
}

/** The body the route read, or, for a request refused before its body was read, its first bytes. */
export async function journalBody(c: Context): Promise<Uint8Array | string | null> {
  const read = c.get('bodyBytes');
  if (read !== undefined) return read;
  const cache = c.req.bodyCache;
  try {
    const cached = cache.arrayBuffer ?? cache.text;
    if (cached !== undefined) {
      const value = await cached;
      return typeof value === 'string' ? value : new Uint8Array(value);
    }
    const stream = c.req.raw.body;
    if (stream === null) return null;
    if (c.req.raw.bodyUsed) return '(body not kept)';
    return await firstBytes(stream);
  } catch (error) {
    return `(body not readable: ${(error as Error).message})`;
  }
}

/** Reads at most one byte past the journal's limit (so a cut body is marked), then stops reading. */
async function firstBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= journalBodyLimit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks);
}
