/** Parses a large JSON body in slices that give the event loop back, so a snapshot import never stalls other requests. */

import { ApiError } from '../domain/errors.js';
import { hasLoneSurrogate, maxJsonDepth } from './body.js';

/** A value whose text fits in this many bytes is handed to JSON.parse whole: native speed, a short pause at most. */
const leafBytes = 64 * 1024;
/** Work between two yields to the event loop; a health request waits at most about this long behind the parse. */
const sliceMs = 10;

const quote = 0x22;
const backslash = 0x5c;
const openObject = 0x7b;
const closeObject = 0x7d;
const openArray = 0x5b;
const closeArray = 0x5d;
const comma = 0x2c;
const colon = 0x3a;

/**
 * At most one JSON value per this many bytes read so far (once past `minValues`): an export holds about one per 14 (a
 * delivered message is 640 bytes and 45 values), while `[{},{},…]` holds one per 1.5 and costs 20 times its bytes in
 * memory. Checked as the parse goes, a body that is dense from its start is refused within its first few hundred
 * kilobytes, and a parse holds at most a small multiple of the body.
 */
const bytesPerValue = 8;
const minValues = 100_000;

/** Gives the event loop a turn (other requests, timers), then goes on. */
export type Pause = () => Promise<void>;

/** A pause after every `sliceMs` of work: the clock is read every so often, and the loop gets a turn when it is due. */
export function slicer(pause: Pause = () => new Promise((resolve) => setImmediate(resolve))): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await pause();
    since = performance.now();
  };
}

/**
 * The JSON value `bytes` hold, parsed as JSON.parse would parse it (duplicate keys: the last wins; `__proto__` an own
 * field) but in slices: containers too large for one go are split into their members and elements, each parsed on its
 * own, with a turn of the event loop whenever a slice's time is up. Memory: the body plus the values it makes.
 * Nesting deeper than 512 levels is SNAPSHOT_TOO_DEEP before it is parsed, more values than one per 8 bytes
 * SNAPSHOT_TOO_LARGE as soon as the count passes it; bad JSON or UTF-8 is CONTROL_INVALID_REQUEST.
 */
export async function parseJsonInSlices(bytes: Uint8Array, pause?: Pause): Promise<unknown> {
  const reader = new SlicedReader(bytes, slicer(pause));
  // A byte order mark is skipped, as the control API's decoder skips it.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) reader.at = 3;
  reader.skipSpace();
  const value = await reader.value(0);
  reader.skipSpace();
  if (reader.at < bytes.length) throw reader.invalid('unexpected text after the JSON value');
  return value;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class SlicedReader {
  at = 0;
  /** Values met so far: brackets and commas of parsed text, and each member or element of a split container. */
  private values = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly due: () => Promise<void>,
  ) {}

  /** Counts values met up to byte `upTo`: more than one per 8 bytes read (past the first 100,000) is SNAPSHOT_TOO_LARGE. */
  private count(values: number, upTo: number): void {
    this.values += values;
    if (this.values > minValues && this.values > upTo / bytesPerValue) {
      throw new ApiError(
        'SNAPSHOT_TOO_LARGE',
        `The snapshot holds more JSON values than one per ${bytesPerValue} bytes (${this.values} in its first ${upTo} bytes), far more than any export; nothing was changed.`,
      );
    }
  }

  invalid(problem: string): ApiError {
    return new ApiError('CONTROL_INVALID_REQUEST', `The body is not valid JSON: ${problem} (at byte ${this.at}).`);
  }

  skipSpace(): void {
    const { bytes } = this;
    while (this.at < bytes.length) {
      const byte = bytes[this.at] as number;
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return;
      this.at += 1;
    }
  }

  /** The value at `at`, nested `depth` levels down; `at` moves past it. */
  async value(depth: number): Promise<unknown> {
    await this.due();
    this.count(1, this.at);
    const start = this.at;
    const end = this.endWithin(start, depth, leafBytes);
    if (end !== undefined) {
      this.at = end;
      return this.parse(start, end);
    }
    const byte = this.bytes[start];
    if (byte === openObject) return this.object(depth + 1);
    if (byte === openArray) return this.array(depth + 1);
    // A long string or number: found by a scan that yields, then parsed in one go (a string parses fast).
    const last = await this.endOfScalar(start);
    this.at = last;
    return this.parse(start, last);
  }

  private async object(depth: number): Promise<Record<string, unknown>> {
    const result: Record<string, unknown> = {};
    this.at += 1;
    this.skipSpace();
    if (this.bytes[this.at] === closeObject) {
      this.at += 1;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.bytes[this.at] !== quote) throw this.invalid('expected a field name');
      const keyStart = this.at;
      const keyEnd = await this.endOfScalar(keyStart);
      this.at = keyEnd;
      const key = this.parse(keyStart, keyEnd) as string;
      this.skipSpace();
      if (this.bytes[this.at] !== colon) throw this.invalid('expected ":"');
      this.at += 1;
      this.skipSpace();
      // As JSON.parse makes it: an own field even when named __proto__, and a repeated name keeps its last value.
      Object.defineProperty(result, key, {
        value: await this.value(depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const next = this.bytes[this.at];
      this.at += 1;
      if (next === closeObject) return result;
      if (next !== comma) throw this.invalid('expected "," or "}"');
    }
  }

  private async array(depth: number): Promise<unknown[]> {
    const result: unknown[] = [];
    this.at += 1;
    this.skipSpace();
    if (this.bytes[this.at] === closeArray) {
      this.at += 1;
      return result;
    }
    for (;;) {
      this.skipSpace();
      result.push(await this.value(depth));
      this.skipSpace();
      const next = this.bytes[this.at];
      this.at += 1;
      if (next === closeArray) return result;
      if (next !== comma) throw this.invalid('expected "," or "]"');
    }
  }

  /**
   * The end of the value starting at `start` when it ends within `limit` bytes, else undefined; SNAPSHOT_TOO_DEEP when
   * its nesting below `depth` passes the limit. Only strings and brackets are followed: JSON.parse checks the rest.
   */
  private endWithin(start: number, depth: number, limit: number): number | undefined {
    const { bytes } = this;
    const stop = Math.min(bytes.length, start + limit);
    let nesting = 0;
    let inString = false;
    let values = 0;
    for (let i = start; i < stop; i++) {
      const byte = bytes[i] as number;
      if (inString) {
        if (byte === backslash) i += 1;
        else if (byte === quote) {
          inString = false;
          if (nesting === 0) return i + 1;
        }
      } else if (byte === quote) inString = true;
      else if (byte === openObject || byte === openArray) {
        nesting += 1;
        values += 1;
        if (depth + nesting > maxJsonDepth) throw tooDeep();
      } else if (byte === closeObject || byte === closeArray) {
        nesting -= 1;
        if (nesting <= 0) {
          this.count(values, i + 1);
          return i + 1;
        }
      } else if (byte === comma && nesting > 0) values += 1;
      else if (nesting === 0 && (byte === comma || byte === closeObject || byte === closeArray || byte <= 0x20)) {
        return i;
      }
    }
    return stop === bytes.length && nesting === 0 && !inString ? stop : undefined;
  }

  /** The end of the string or bare scalar at `start`, however long, scanned in slices. */
  private async endOfScalar(start: number): Promise<number> {
    const { bytes } = this;
    const isString = bytes[start] === quote;
    for (let i = isString ? start + 1 : start; i < bytes.length; i++) {
      if ((i & 0xffff) === 0) await this.due();
      const byte = bytes[i] as number;
      if (isString) {
        if (byte === backslash) i += 1;
        else if (byte === quote) return i + 1;
      } else if (byte === comma || byte === closeObject || byte === closeArray || byte <= 0x20) return i;
      else if (byte === openObject || byte === openArray || byte === quote) break;
    }
    if (!isString && start < bytes.length && bytes[start] !== openObject && bytes[start] !== openArray) {
      return bytes.length;
    }
    this.at = start;
    throw this.invalid(isString ? 'a string does not end' : 'unexpected character');
  }

  /** JSON.parse of the bytes from `start` to `end`, with the control API's refusals for bad UTF-8 and bad JSON. */
  private parse(start: number, end: number): unknown {
    let text: string;
    try {
      text = utf8.decode(this.bytes.subarray(start, end));
    } catch {
      this.at = start;
      throw new ApiError('CONTROL_INVALID_REQUEST', 'The body is not valid UTF-8.');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.at = start;
      throw this.invalid((error as Error).message);
    }
    // UTF-8 holds no lone surrogate, so only a \u escape can make one: the control API refuses those everywhere.
    if (text.includes('\\u') && hasLoneSurrogate(value)) {
      this.at = start;
      throw this.invalid('a string holds half of a UTF-16 surrogate pair');
    }
    return value;
  }
}

function tooDeep(): ApiError {
  return new ApiError(
    'SNAPSHOT_TOO_DEEP',
    `The snapshot is nested deeper than ${maxJsonDepth} levels; nothing was changed.`,
  );
}
