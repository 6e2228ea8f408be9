/**
 * Placeholders that bind values across a transcript's lines, so it replays against a world that issues other ids and
 * times: `{{id:N}}` for the Nth id the provider issued, `{{ref:N}}` for a client_reference, `{{time:+ms}}` for an instant
 * as an offset from the start, `{{origin}}` for the base address in links, `{{key}}` for the session's API key.
 */

import { formatInstant, formatOffset, parseOffset } from '../domain/time.js';
import { defaultScheduleOffsetMinutes } from '../domain/scheduleWindow.js';

/** A full ISO 8601 time as the API writes and reads them: minutes, optional seconds (and fraction), optional offset. */
const isoTime = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;
const timePlaceholder = /^\{\{time:([+-]\d+)(?::([ms])(Z|[+-]\d{2}:\d{2})?)?\}\}$/;
const anyPlaceholder = /\{\{(id|ref|key):?(\d*)\}\}/g;
const absoluteUrl = /^https?:\/\/[^/?#]+(?=[/?#]|$)/;

/** The keys whose string values are ids the provider issued (learned on first sight). */
const idKeys = new Set(['id', 'in_reply_to']);

export interface BindingsOptions {
  /** Epoch ms every time placeholder counts from. */
  startMs: number;
  /** The offset a time placeholder without its own is written in (`+02:00`). */
  timeZone: string;
  /** Input values already bound (a transcript header's `values`). */
  values?: Record<string, string>;
}

/**
 * One side's bindings: written to as lines are templated (ids learned in the order they appear), read from when a
 * templated line is resolved for a request. Two sides that issue the same requests in the same order learn the same
 * placeholders for their own ids, which is what lets a recording and its replay be compared.
 */
export class Bindings {
  private readonly toPlaceholder = new Map<string, string>();
  private readonly fromPlaceholder = new Map<string, string>();
  private readonly counts = { id: 0, ref: 0, key: 0 };
  readonly startMs: number;
  readonly timeZone: string;
  private readonly zoneMinutes: number;

  constructor(options: BindingsOptions) {
    this.startMs = options.startMs;
    this.timeZone = options.timeZone;
    this.zoneMinutes = parseOffset(options.timeZone) ?? 0;
    for (const [name, value] of Object.entries(options.values ?? {})) this.bind(`{{${name}}}`, value);
  }

  private bind(placeholder: string, value: string): void {
    this.toPlaceholder.set(value, placeholder);
    this.fromPlaceholder.set(placeholder, value);
    const match = /^\{\{(id|ref|key):(\d+)\}\}$/.exec(placeholder);
    if (match) {
      const kind = match[1] as 'id' | 'ref' | 'key';
      this.counts[kind] = Math.max(this.counts[kind], Number(match[2]));
    }
  }

  /** The placeholder of an issued id, made on first sight. */
  learnId(id: string): string {
    return this.toPlaceholder.get(id) ?? this.fresh('id', id);
  }

  /** The placeholder of an API key (the first one seen is `{{key}}`, later ones `{{key:2}}`, …). */
  key(value: string): string {
    const known = this.toPlaceholder.get(value);
    if (known !== undefined) return known;
    this.counts.key += 1;
    const placeholder = this.counts.key === 1 ? '{{key}}' : `{{key:${this.counts.key}}}`;
    this.bind(placeholder, value);
    return placeholder;
  }

  private fresh(kind: 'id' | 'ref', value: string): string {
    this.counts[kind] += 1;
    const placeholder = `{{${kind}:${this.counts[kind]}}}`;
    this.bind(placeholder, value);
    return placeholder;
  }

  /** Input values bound so far (`ref:1` → `order-42`), for a transcript header. */
  inputValues(): Record<string, string> {
    const values: Record<string, string> = {};
    for (const [placeholder, value] of this.fromPlaceholder)
      if (placeholder.startsWith('{{ref:')) values[placeholder.slice(2, -2)] = value;
    return values;
  }

  /** The value a placeholder stands for on this side, or undefined when it was never bound. */
  valueOf(placeholder: string): string | undefined {
    return this.fromPlaceholder.get(placeholder);
  }

  /** `{{time:+ms}}` for an instant, in the shape of `text` (its precision and offset) when that differs from the default. */
  timeOf(text: string): string | undefined {
    const match = isoTime.exec(text);
    if (!match) return undefined;
    const zone = match[3];
    const assumed = zone ?? formatOffset(defaultScheduleOffsetMinutes);
    const ms = Date.parse(`${match[1]}${match[2] ?? ''}${assumed === '+00:00' ? 'Z' : assumed}`);
    if (Number.isNaN(ms)) return undefined;
    const offset = ms - this.startMs;
    const signed = `${offset < 0 ? '-' : '+'}${Math.abs(offset)}`;
    const precision = match[2] === undefined ? 'm' : 's';
    if (precision === 's' && zone === this.timeZone) return `{{time:${signed}}}`;
    return `{{time:${signed}:${precision}${zone ?? ''}}}`;
  }

  /** The instant a time placeholder stands for on this side, written in its shape. */
  resolveTime(placeholder: string): string | undefined {
    const match = timePlaceholder.exec(placeholder);
    if (!match) return undefined;
    const ms = this.startMs + Number(match[1]);
    if (match[2] === undefined) return formatInstant(ms, this.zoneMinutes);
    const zone = match[3];
    const minutes = zone === undefined ? defaultScheduleOffsetMinutes : (parseOffset(zone) ?? 0);
    const full = formatInstant(ms, minutes);
    const body = match[2] === 'm' ? full.slice(0, 16) : full.slice(0, 19);
    return zone === undefined ? body : `${body}${zone}`;
  }

  /**
   * A value of an answer, webhook or request with this side's ids, references, times and origin replaced by
   * placeholders. Ids are learned from `id` fields; client_reference values are bound when `inputs` is true (a
   * request's body); known ids are replaced wherever they appear in text (paths, links).
   */
  template(value: unknown, inputs = false, key?: string): unknown {
    if (typeof value === 'string') return this.templateText(value, key, inputs);
    if (Array.isArray(value)) return value.map((item) => this.template(item, inputs, key));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) out[name] = this.template(item, inputs, name);
    return out;
  }

  private templateText(text: string, key: string | undefined, inputs: boolean): string {
    const known = this.toPlaceholder.get(text);
    if (known !== undefined) return known;
    if (key !== undefined && idKeys.has(key) && !inputs && text !== '') return this.learnId(text);
    if (key === 'client_reference' && text !== '') return this.fresh('ref', text);
    const time = this.timeOf(text);
    if (time !== undefined) return time;
    return this.templatePath(text.replace(absoluteUrl, '{{origin}}'));
  }

  /** Known ids inside a path or link (`/v1/messages/<id>`) replaced by their placeholders. */
  templatePath(text: string): string {
    return text.replace(/[^/?#&=]+/g, (part) => {
      const placeholder = this.toPlaceholder.get(part);
      return placeholder !== undefined && placeholder.startsWith('{{id:') ? placeholder : part;
    });
  }

  /** A templated value with every placeholder replaced by this side's value (`origin` is the base address to use). */
  resolve(value: unknown, origin: string): unknown {
    if (typeof value === 'string') return this.resolveText(value, origin);
    if (Array.isArray(value)) return value.map((item) => this.resolve(item, origin));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) out[name] = this.resolve(item, origin);
    return out;
  }

  resolveText(text: string, origin: string): string {
    const time = this.resolveTime(text);
    if (time !== undefined) return time;
    return text
      .replaceAll('{{origin}}', origin)
      .replace(anyPlaceholder, (whole) => this.fromPlaceholder.get(whole) ?? whole);
  }
}

/** The milliseconds a `{{time:±ms…}}` placeholder stands for, or undefined for any other text. */
export function timeOffsetOf(text: string): number | undefined {
  const match = timePlaceholder.exec(text);
  return match ? Number(match[1]) : undefined;
}
