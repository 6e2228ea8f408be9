/** Reads a `Retry-After` field as RFC 9110 defines it: delta-seconds or an HTTP-date, anything else none. */

/**
 * The most seconds a `Retry-After` is read as: one day. A longer wait (or a date further ahead) is read as a day, so
 * a number too big to be advice, like `99999999999999999999`, neither overflows nor becomes a wait no test outlives.
 */
export const maxRetryAfterSeconds = 86_400;

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthPattern = months.join('|');
const time = '(\\d{2}):(\\d{2}):(\\d{2})';
// The three forms RFC 9110 §5.6.7 obliges a recipient to accept; `Date.parse` alone also takes `12/31/2099` and more.
const imfFixdate = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${monthPattern}) (\\d{4}) ${time} GMT$`);
const rfc850Date = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${monthPattern})-(\\d{2}) ${time} GMT$`,
);
const asctimeDate = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${monthPattern}) ([ \\d]\\d) ${time} (\\d{4})$`);

/**
 * `Retry-After` as whole seconds to wait, at most {@link maxRetryAfterSeconds}: a non-negative integer as is, an
 * HTTP-date counted from `now` (0 when it is past); undefined for anything else (`-1`, `1.5`, `soon`, `12/31/2099`).
 */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), maxRetryAfterSeconds);
  const at = httpDate(text, now);
  if (at === undefined) return undefined;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), maxRetryAfterSeconds);
}

/** The instant an HTTP-date names, in ms since the epoch; undefined when the text is none of its forms or no real date. */
function httpDate(text: string, now: number): number | undefined {
  let match = imfFixdate.exec(text);
  if (match) return utc(Number(match[3]), match[2]!, match[1]!, match.slice(4, 7));
  match = rfc850Date.exec(text);
  if (match) return utc(fullYear(Number(match[3]), now), match[2]!, match[1]!, match.slice(4, 7));
  match = asctimeDate.exec(text);
  if (match) return utc(Number(match[6]), match[1]!, match[2]!, match.slice(3, 6));
  return undefined;
}

/** A two-digit year read as RFC 9110 says: one more than 50 years ahead of now is in the past century. */
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const year = Math.floor(thisYear / 100) * 100 + twoDigits;
  return year > thisYear + 50 ? year - 100 : year;
}

function utc(year: number, month: string, day: string, [hour, minute, second]: string[]): number | undefined {
  const parts = [year, months.indexOf(month), Number(day), Number(hour), Number(minute), Number(second)] as const;
  const at = Date.UTC(...parts);
  const date = new Date(at);
  // Date.UTC rolls 31 Feb over into March and 25:00 into the next day; a date that does not exist is no date.
  const back = [
    date.getUTCFullYear(),
    date.getUTCMonth(),
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
  ];
  return back.every((value, index) => value === parts[index]) ? at : undefined;
}
