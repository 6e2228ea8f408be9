// The differential run's comparison: two recordings of the session, path by path, grouped by call, and held to a list of expected differences.

/** How a value missing on one side is written (JSON has no undefined, and an expectations file must hold it). */
export const absent = '(absent)';

/**
 * Every difference between two recordings: `{ call, path, before, after }`, in the session's order. Calls pair by
 * name; a call only one side made is one difference at path `''`. A path names object keys with `.` and array items
 * with `[n]`, from the call's record (`answer.body.list[0].status`, `webhooks[2].headers.x-emulator-event-id`).
 */
export function diffRecordings(before, after) {
  const differences = [];
  const afterCalls = new Map(after.calls.map((call) => [call.call, call]));
  const beforeNames = new Set(before.calls.map((call) => call.call));
  for (const call of before.calls) {
    const other = afterCalls.get(call.call);
    if (other === undefined) differences.push({ call: call.call, path: '', before: strip(call), after: absent });
    else compare(call.call, '', strip(call), strip(other), differences);
  }
  for (const call of after.calls)
    if (!beforeNames.has(call.call))
      differences.push({ call: call.call, path: '', before: absent, after: strip(call) });
  return differences;
}

/** A call's record without its name (the name pairs it; the rest is what is compared). */
function strip({ call: _call, ...rest }) {
  return rest;
}

function compare(call, path, a, b, out) {
  if (isObject(a) && isObject(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    for (const k of keys)
      compare(call, path === '' ? k : `${path}.${k}`, k in a ? a[k] : absent, k in b ? b[k] : absent, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++)
      compare(call, `${path}[${i}]`, i < a.length ? a[i] : absent, i < b.length ? b[i] : absent, out);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ call, path, before: a, after: b });
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A path with its item numbers written `[*]`: one difference repeated in every item of a list is one line. */
export function pathPattern(path) {
  return path.replace(/\[\d+\]/g, '[*]');
}

/**
 * The differences as text, grouped by call, one line per path pattern and values (`×N` when it repeats over items):
 * `  answer.body.mode: "manual" → "realtime"`.
 */
export function formatDiff(differences) {
  if (differences.length === 0) return 'No differences.\n';
  const lines = [];
  let call;
  for (const group of groupDifferences(differences)) {
    if (group.call !== call) {
      call = group.call;
      lines.push(call);
    }
    const times = group.count > 1 ? ` (×${group.count})` : '';
    lines.push(
      `  ${group.path === '' ? '(the call)' : group.path}${times}: ${show(group.before)} → ${show(group.after)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Differences of one call with the same path pattern and the same values, counted once. */
export function groupDifferences(differences) {
  const groups = new Map();
  for (const difference of differences) {
    const path = pathPattern(difference.path);
    const key = JSON.stringify([difference.call, path, difference.before, difference.after]);
    const group = groups.get(key);
    if (group === undefined)
      groups.set(key, { call: difference.call, path, before: difference.before, after: difference.after, count: 1 });
    else group.count++;
  }
  return [...groups.values()];
}

function show(value) {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * Holds differences to an expectations list: each entry `{ call?, path, before?, after?, changelog }` covers the
 * differences of that call (any call when absent) whose path pattern is `path` (`**` standing for any run of
 * characters, so one entry can cover a field renamed wherever it appears) and whose values are `before` and `after`
 * (any when absent). Answers the differences no entry covers and the entries that covered nothing: either
 * fails the check (a new difference is a change nobody announced; an entry that matches nothing describes a change
 * that is gone).
 */
export function checkExpectations(differences, expected) {
  const used = new Set();
  const unexpected = [];
  for (const difference of differences) {
    const index = expected.findIndex((entry) => covers(entry, difference));
    if (index === -1) unexpected.push(difference);
    else used.add(index);
  }
  const unseen = expected.filter((_, index) => !used.has(index));
  return { unexpected, unseen };
}

/** An entry's path against a difference's pattern: exact, where `**` stands for any run of characters (any key or depth). */
function pathMatches(expected, pattern) {
  if (!expected.includes('**')) return expected === pattern;
  const parts = expected.split('**').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(pattern);
}

function covers(entry, difference) {
  if (entry.call !== undefined && entry.call !== difference.call) return false;
  if (!pathMatches(entry.path, pathPattern(difference.path))) return false;
  if ('before' in entry && JSON.stringify(entry.before) !== JSON.stringify(difference.before)) return false;
  if ('after' in entry && JSON.stringify(entry.after) !== JSON.stringify(difference.after)) return false;
  return true;
}

/**
 * The expected differences from an expectations file's text: JSON `{ differences: [...] }`, or a Markdown page whose
 * first fenced json block is that object (docs/differential.md keeps the list beside what each entry means).
 */
export function readExpectations(text) {
  const block = /```json\n([\s\S]*?)\n```/.exec(text);
  const parsed = JSON.parse(block === null ? text : block[1]);
  if (!Array.isArray(parsed.differences))
    throw new Error('differential: an expectations file holds { "differences": [...] }');
  return parsed.differences;
}
