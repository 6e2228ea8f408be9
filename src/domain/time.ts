/** The range of instants and durations the emulator works with, rendering instants as ISO 8601, and parsing offsets and durations. */

/** The earliest instant any time may hold: 1970-01-01T00:00:00Z. */
export const minInstant = 0;
/** The latest instant any time may hold: 9999-12-31T23:59:59.999Z, the last one ISO 8601 writes with four digits. */
export const maxInstant = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The longest duration accepted anywhere (36,500 days, about 100 years): longer ones are refused, never wrapped. */
export const maxDurationMs = 36_500 * 86_400_000;

/** The longest wall-clock wait (2^31 - 1 ms, about 24.8 days): a Node timer set longer fires after 1 ms instead. */
export const maxWallWaitMs = 2_147_483_647;
/** What a wall-clock wait that is too long is told. */
export const wallWaitHint = 'expected a wall-clock wait of at most 24d (2147483647 ms, the longest a Node timer holds)';

/** False only for a valid duration longer than maxWallWaitMs (an invalid one is reported by the duration check itself). */
export function fitsWallTimer(value: string | number): boolean {
  const ms = parseDuration(value);
  return ms === undefined || ms <= maxWallWaitMs;
}

/** True for a whole number of milliseconds within [minInstant, maxInstant]. */
export function isInstantInRange(ms: number): boolean {
  return Number.isInteger(ms) && ms >= minInstant && ms <= maxInstant;
}

/** `at` plus `ms`, held at maxInstant: times computed from durations never leave the range. */
export function addDuration(at: number, ms: number): number {
  return Math.min(at + ms, maxInstant);
}

const offsetPattern = /^(Z|[+-](\d{2}):(\d{2}))$/;

/** Minutes east of UTC for `Z`, `+02:00`, `-05:30`; undefined when the text is not an offset. */
export function parseOffset(text: string): number | undefined {
  const match = offsetPattern.exec(text);
  if (!match) return undefined;
  if (match[1] === 'Z') return 0;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 14 || minutes > 59) return undefined;
  const sign = text.startsWith('-') ? -1 : 1;
  return sign * (hours * 60 + minutes);
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The first local time ISO 8601 writes with a four-digit year (0000-01-01T00:00:00); the last is maxInstant. */
const firstLocal = -62_167_219_200_000;

/**
 * `2026-11-21T14:30:00+02:00` for the instant `ms` seen from `offsetMinutes`. Total: a time outside the
 * four-digit years (or not a number) is held at the nearest end, so rendering never throws.
 */
export function formatInstant(ms: number, offsetMinutes: number): string {
  const local = ms + offsetMinutes * 60_000;
  const held = Number.isNaN(local) ? minInstant : Math.min(Math.max(local, firstLocal), maxInstant);
  // Renders come in bursts over a few seconds (a message's creation, schedule and delivery times, the
  // events of a clock jump at one instant) and the text only changes with the second, so the latest few
  // are kept (profiled: 11-13% of a 7-day jump).
  const second = Math.floor(held / 1000);
  for (const entry of recentlyFormatted) {
    if (entry.second === second && entry.offsetMinutes === offsetMinutes) return entry.text;
  }
  const entry = {
    second,
    offsetMinutes,
    text: new Date(held).toISOString().slice(0, 19) + formatOffset(offsetMinutes),
  };
  recentlyFormatted[nextSlot] = entry;
  nextSlot = (nextSlot + 1) % recentlyFormatted.length;
  return entry.text;
}

const recentlyFormatted = Array.from({ length: 4 }, () => ({ second: Number.NaN, offsetMinutes: 0, text: '' }));
let nextSlot = 0;

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** What a bad duration is told, wherever durations are accepted. */
export const durationHint =
  'expected a duration such as 500ms, 90s, 15m, 2h, 7d, 1h30m or 5m1s, or milliseconds, at most 36500d';

export const durationUnits: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
/** A plain number of milliseconds, or one or more number-and-unit parts (`1h30m`, `5m1s`, `1.5h`). */
export const durationPattern = /^(?:\d+(?:\.\d+)?|(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+)$/;
const durationPart = /(\d+(?:\.\d+)?)(ms|s|m|h|d)?/g;

/**
 * Milliseconds for `90s`, `15m`, `2h`, `7d`, `250ms`, a compound such as `1h30m` or `5m1s`, or a plain number of
 * milliseconds; undefined past maxDurationMs. Time is whole milliseconds everywhere: a fraction (`1.5`, `0.5ms`) is
 * rounded to the nearest one, so a clock never shows a fractional time.
 */
export function parseDuration(value: string | number): number | undefined {
  let ms = 0;
  if (typeof value === 'number') ms = value;
  else {
    const text = value.trim();
    if (!durationPattern.test(text)) return undefined;
    for (const [, amount, unit] of text.matchAll(durationPart))
      ms += Number(amount) * (durationUnits[unit ?? 'ms'] ?? 1);
  }
  ms = Math.round(ms);
  return ms >= 0 && ms <= maxDurationMs ? ms : undefined;
}
