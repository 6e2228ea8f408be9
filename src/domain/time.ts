/** Rendering instants as ISO 8601 with seconds and an explicit offset, and parsing offsets. */

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

/** `2026-11-21T14:30:00+02:00` for the instant `ms` seen from `offsetMinutes`. */
export function formatInstant(ms: number, offsetMinutes: number): string {
  const shifted = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  return shifted + formatOffset(offsetMinutes);
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const durationPattern = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;

/** Milliseconds for `90s`, `15m`, `2h`, `7d`, `250ms` or a plain number of milliseconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  const match = durationPattern.exec(value.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * (units[match[2] ?? 'ms'] ?? 1));
}
