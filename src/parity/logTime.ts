/**
 * A delivery log's time as an instant: ISO 8601 with its UTC offset, or, with no offset, a wall time read in a named
 * IANA zone; never in the machine's zone, so the same log gives the same times on every machine.
 */

/** What a log's time text is: an instant (epoch ms), or why it is none, in the words a person fixing the log needs. */
export type LogTime = { at: number } | { problem: string };

const notATime = 'is not a time (write ISO 8601 with its UTC offset, such as 2026-11-21T10:00:05+02:00)';
const noOffset =
  'has no UTC offset, so it names a different instant in every zone: give the times with theirs (Z, +02:00), or name the zone they were written in with --timezone <IANA zone> (timeZone)';
const notInZone = 'never happens in the zone given (the clocks went forward past it)';

const iso =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;
/** Another format a provider may export (RFC 2822, an HTTP date), taken only when it ends in its zone. */
const zoned = /(?:\bGMT|\bUTC|\bZ|[+-]\d{4})$/i;

/** Whether `name` is an IANA time zone this runtime knows (`Africa/Johannesburg`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.trim() !== '';
  } catch {
    return false;
  }
}

/** The offset of `timeZone` from UTC at the instant `at`, in ms. */
function zoneOffset(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const part = (type: string): number => Number(parts.find((each) => each.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - (at - (((at % 1000) + 1000) % 1000));
}

/**
 * The instant of the wall time `wall` (its fields as UTC epoch ms) in `timeZone`: of an hour that happens twice (the
 * clocks going back) the first; undefined for one that never happens (the clocks going forward).
 */
function inZone(wall: number, timeZone: string): number | undefined {
  const candidates = [...new Set([zoneOffset(wall, timeZone), zoneOffset(wall - 86_400_000, timeZone)])]
    .map((offset) => wall - offset)
    .filter((at) => zoneOffset(at, timeZone) === wall - at)
    .sort((a, b) => a - b);
  return candidates[0];
}

/** The instant `text` names, a wall time with no offset read in `timeZone` (an IANA zone) when given. */
export function logTime(text: string, timeZone?: string): LogTime {
  const value = text.trim();
  const match = iso.exec(value);
  if (match === null) {
    const ms = Date.parse(value);
    return zoned.test(value) && !Number.isNaN(ms) ? { at: ms } : { problem: notATime };
  }
  const [, year, month, day, hour, minute, second = '0', fraction = '0', offset] = match;
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Math.round(Number(`0.${fraction}`) * 1000),
  );
  if (Number.isNaN(wall) || new Date(wall).getUTCDate() !== Number(day)) return { problem: notATime };
  if (offset !== undefined) {
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = /^[+-](\d{2}):?(\d{2})?$/.exec(offset);
    const minutes = digits === null ? 0 : Number(digits[1]) * 60 + Number(digits[2] ?? 0);
    return { at: wall - sign * minutes * 60_000 };
  }
  if (timeZone === undefined) return { problem: noOffset };
  const at = inZone(wall, timeZone);
  return at === undefined ? { problem: notInZone } : { at };
}
