/**
 * Parses a large JSON body in slices as its chunks arrive, giving the event loop back between slices, so a snapshot
 * import never stalls other requests and the body is never held whole.
 */

import { ApiError } from '../domain/errors.js';
import type { ListItems } from '../state/snapshot.js';
import { hasLoneSurrogate } from './body.js';
import { maxJsonDepth } from '../domain/jsonScan.js';

/** A value whose text fits in this many bytes is handed to JSON.parse whole: native speed, a short pause at most. */
const leafBytes = 64 * 1024;
/**
 * Work between two yields to the event loop. A request reaches its handler in two or three turns of the loop (accept,
 * read, answer), each behind one slice and whatever garbage collection falls in it: 5 ms keeps that well under the
 * 100 ms a health check may wait, and a turn costs a few microseconds, so the import is barely slower for it.
 */
const sliceMs = 5;

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

/** A turn of the event loop: setImmediate runs after the loop has polled for I/O, which a microtask never lets it do. */
const loopTurn: Pause = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Steps (calls of a slicer: a value parsed, an element checked, a message put in place) between two yields at most,
 * whatever the clock says: a slice is bounded by its work as well as by its time, so no stretch of steps that each run
 * quickly but between clock reads (or a clock that reads wrong) holds the loop. A turn costs microseconds, so even a
 * 200,000-message import is about 2,000 turns slower for it.
 */
export const stepsPerSlice = 256;

/** A pause after every `sliceMs` of work or `stepsPerSlice` steps, whichever comes first. */
export function slicer(pause: Pause = loopTurn): () => Promise<void> {
  let since = performance.now();
  let steps = 0;
  return async () => {
    steps += 1;
    if (steps < stepsPerSlice && performance.now() - since < sliceMs) return;
    await pause();
    since = performance.now();
    steps = 0;
  };
}

/** Marks the end of the bytes received so far when more may come: the caller awaits the next chunk and asks again. */
const needMore = -1;

/**
 * The JSON value the chunks hold, parsed as JSON.parse would parse it (duplicate keys: the last wins; `__proto__` an
 * own field) but as the chunks arrive and in slices: containers too large for one go are split into their members and
 * elements, each parsed on its own, with a turn of the event loop whenever a slice's time is up (`due`). Only the bytes
 * of the value being parsed are held, never the whole body. The elements of a top-level list that `items` wants are
 * handed to it one by one as they are parsed, and the list holds what it keeps of them. Nesting deeper than 512 levels
 * is SNAPSHOT_TOO_DEEP before it is parsed, more values than one per 8 bytes SNAPSHOT_TOO_LARGE as soon as the count
 * passes it; bad JSON or UTF-8 is CONTROL_INVALID_REQUEST; an error of the chunks' source (a body too large) is passed
 * on as it is, and the parse stops there.
 */
export async function parseJsonStream(
  chunks: AsyncIterable<Uint8Array>,
  due: () => Promise<void> = slicer(),
  items?: ListItems,
): Promise<unknown> {
  const source = chunks[Symbol.asyncIterator]();
  const reader = new StreamReader(source, due, items);
  try {
    await reader.fill(3);
    // A byte order mark is skipped, as the control API's decoder skips it.
    if (reader.byte(0) === 0xef && reader.byte(1) === 0xbb && reader.byte(2) === 0xbf) reader.at = 3;
    await reader.skipSpace();
    const value = await reader.value(0);
    await reader.skipSpace();
    if (reader.byte(reader.at) !== undefined) throw reader.invalid('unexpected text after the JSON value');
    return value;
  } finally {
    // A refusal before the body's end stops reading it (a body read to its end makes this a no-op).
    await source.return?.();
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The bytes a number or a literal (true, false, null) is written with. */
const scalarBytes = new Set(Array.from('0123456789+-.eEtruefalsn', (character) => character.charCodeAt(0)));

/**
 * The bytes received and not yet parsed, in one window. Positions are counted from the body's first byte: the window
 * holds the bytes from `base` on, and drops those before `at` (the start of the value being parsed) when a chunk comes.
 */
class StreamReader {
  at = 0;
  private window: Uint8Array = new Uint8Array(0);
  /** The body position of the window's first byte, and how many of its bytes hold data. */
  private base = 0;
  private filled = 0;
  /** Whether the window is a chunk as it came (not ours to write into). */
  private borrowed = true;
  private ended = false;
  /** Values met so far: brackets and commas of parsed text, and each member or element of a split container. */
  private values = 0;

  constructor(
    private readonly source: AsyncIterator<Uint8Array>,
    private readonly due: () => Promise<void>,
    private readonly items: ListItems | undefined,
  ) {}

  /** The byte at body position `position`, or undefined when it has not been received (or the body ended before it). */
  byte(position: number): number | undefined {
    // The window may be longer than what it holds (room for the next chunk).
    return position < this.end ? this.window[position - this.base] : undefined;
  }

  /** The position after the last byte received. */
  private get end(): number {
    return this.base + this.filled;
  }

  /** Takes the next chunk into the window; false once the body has ended. */
  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done === true) {
      this.ended = true;
      return false;
    }
    const chunk = next.value;
    const drop = this.at - this.base;
    const rest = this.filled - drop;
    if (rest === 0) {
      // Everything before was parsed: the chunk becomes the window as it is, no copy.
      this.window = chunk;
      this.borrowed = true;
    } else {
      const need = rest + chunk.byteLength;
      if (this.borrowed || need > this.window.length) {
        // Doubling: a value that spans many chunks (a long string) is copied a few times, not once per chunk.
        const grown = new Uint8Array(Math.max(need, rest * 2, leafBytes * 2));
        grown.set(this.window.subarray(drop, this.filled));
        this.window = grown;
        this.borrowed = false;
      } else if (drop > 0) this.window.copyWithin(0, drop, this.filled);
      this.window.set(chunk, rest);
    }
    this.base = this.at;
    this.filled = rest + chunk.byteLength;
    return true;
  }

  /** Waits until `count` bytes from `at` have been received, or the body has ended. */
  async fill(count: number): Promise<void> {
    while (this.end - this.at < count && (await this.more()));
  }

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

  /** Moves `at` past white space, taking chunks as needed. */
  async skipSpace(): Promise<void> {
    for (;;) {
      const { window, base } = this;
      const end = this.end;
      while (this.at < end) {
        const byte = window[this.at - base] as number;
        if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return;
        this.at += 1;
      }
      if (!(await this.more())) return;
    }
  }

  /** The byte at `at` once received (undefined at the body's end), after white space. */
  private async next(): Promise<number | undefined> {
    if (this.at >= this.end || this.isSpace()) await this.skipSpace();
    return this.byte(this.at);
  }

  private isSpace(): boolean {
    const byte = this.byte(this.at);
    return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
  }

  /** The value at `at`, nested `depth` levels down; `at` moves past it. */
  async value(depth: number): Promise<unknown> {
    await this.due();
    this.count(1, this.at);
    const start = this.at;
    let end = this.endWithin(start, depth, leafBytes);
    while (end === needMore) {
      await this.more();
      end = this.endWithin(start, depth, leafBytes);
    }
    if (end !== undefined) {
      this.at = end;
      return this.parse(start, end);
    }
    const byte = this.byte(start);
    if (byte === openObject) return this.object(depth + 1);
    if (byte === openArray) return this.array(depth + 1, undefined);
    // A long string or number: found by a scan that yields, then parsed in one go (a string parses fast).
    const last = await this.endOfScalar(start);
    this.at = last;
    return this.parse(start, last);
  }

  private async object(depth: number): Promise<Record<string, unknown>> {
    const result: Record<string, unknown> = {};
    this.at += 1;
    if ((await this.next()) === closeObject) {
      this.at += 1;
      return result;
    }
    for (;;) {
      if ((await this.next()) !== quote) throw this.invalid('expected a field name');
      const keyStart = this.at;
      const keyEnd = await this.endOfScalar(keyStart);
      this.at = keyEnd;
      const key = this.parse(keyStart, keyEnd) as string;
      if ((await this.next()) !== colon) throw this.invalid('expected ":"');
      this.at += 1;
      const first = await this.next();
      // A top-level list the caller takes item by item: its elements are handed over as they are parsed.
      const list = depth === 1 ? this.items?.list(key) : undefined;
      let value: unknown;
      if (list !== undefined && first === openArray) {
        await this.due();
        this.count(1, this.at);
        value = await this.array(depth + 1, list);
      } else value = await this.value(depth);
      // As JSON.parse makes it: an own field even when named __proto__, and a repeated name keeps its last value.
      Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      const next = await this.next();
      this.at += 1;
      if (next === closeObject) return result;
      if (next !== comma) throw this.invalid('expected "," or "}"');
    }
  }

  /** The array at `at`; with `list`, each element is what the list keeps of it. */
  private async array(depth: number, list: ReturnType<ListItems['list']>): Promise<unknown[]> {
    const result: unknown[] = [];
    this.at += 1;
    if ((await this.next()) === closeArray) {
      this.at += 1;
      return list === undefined ? result : list.end(result);
    }
    for (;;) {
      await this.next();
      const element = await this.value(depth);
      result.push(list === undefined ? element : list.take(result.length, element));
      const next = await this.next();
      this.at += 1;
      if (next === closeArray) return list === undefined ? result : list.end(result);
      if (next !== comma) throw this.invalid('expected "," or "]"');
    }
  }

  /**
   * The end of the value starting at `start` when it ends within `limit` bytes, else undefined; needMore when the bytes
   * received so far end first; SNAPSHOT_TOO_DEEP when its nesting below `depth` passes the limit. Only strings and
   * brackets are followed: JSON.parse checks the rest.
   */
  private endWithin(start: number, depth: number, limit: number): number | undefined {
    const { window, base } = this;
    const received = this.end;
    const stop = Math.min(received, start + limit);
    let nesting = 0;
    let inString = false;
    let values = 0;
    for (let i = start; i < stop; i++) {
      const byte = window[i - base] as number;
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
    if (stop < start + limit && !this.ended) return needMore;
    return this.ended && stop === received && nesting === 0 && !inString ? stop : undefined;
  }

  /** The end of the string or bare scalar at `start`, however long, scanned in slices as its chunks arrive. */
  private async endOfScalar(start: number): Promise<number> {
    if (this.byte(start) === undefined) await this.fill(1);
    const isString = this.byte(start) === quote;
    let i = isString ? start + 1 : start;
    for (;;) {
      const { window, base } = this;
      const received = this.end;
      for (; i < received; i++) {
        if ((i & 0xffff) === 0) await this.due();
        const byte = window[i - base] as number;
        if (isString) {
          if (byte === backslash) i += 1;
          else if (byte === quote) return i + 1;
        } else if (byte === comma || byte === closeObject || byte === closeArray || byte <= 0x20) return i;
        else if (!scalarBytes.has(byte)) {
          // No number or literal holds this byte: refused at once, not after an endless scalar has been read.
          this.at = start;
          this.parse(start, i + 1);
          throw this.invalid('unexpected character');
        }
      }
      // `at` is `start` here, so the window keeps the scalar's bytes while more arrive.
      if (!(await this.more())) break;
      // An escape's backslash may have been the last byte received: the scan goes on past the escaped byte.
    }
    const first = this.byte(start);
    if (!isString && first !== undefined && first !== openObject && first !== openArray) return this.end;
    this.at = start;
    throw this.invalid(isString ? 'a string does not end' : 'unexpected character');
  }

  /** JSON.parse of the bytes from `start` to `end`, with the control API's refusals for bad UTF-8 and bad JSON. */
  private parse(start: number, end: number): unknown {
    let text: string;
    try {
      text = utf8.decode(this.window.subarray(start - this.base, end - this.base));
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
