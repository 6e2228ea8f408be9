/**
 * Turns the differences a comparison found into findings a person acts on: a field removed and one added in the same
 * place with the same value are one rename; each finding gets its tier (by kind, then by the rules' field rules) and a
 * waiver's reason where one covers it; findings of one cause (one kind on one field, wherever it recurs) are one
 * finding listing every line.
 */

import { timeOffsetOf } from './bindings.js';
import type { FindingKind, ParityRules, Tier } from './parityRules.js';

/** One difference as the comparison saw it, on one transcript line. */
export interface RawFinding {
  kind: FindingKind;
  line: number;
  /** The field: `answer.status`, `answer.body.list[0].credit`, `webhook {{id:1}} 27831234567 delivered`. */
  field: string;
  /** What differs, without the line and field (they are added when the finding is written). */
  message: string;
  recorded?: unknown;
  emulator?: unknown;
  /** The request path of the answer the difference is in (none for webhooks). */
  path?: string;
}

export interface Finding {
  tier: Tier;
  kind: FindingKind;
  /** The first transcript line the finding is about. */
  line: number;
  /** Every line of the finding: a difference that recurs (a renamed field on every answer) is one finding. */
  lines: number[];
  /** The field, or the pattern of the fields when it recurs on several (`answer.body.list[*].credit`). */
  field: string;
  message: string;
  recorded?: unknown;
  emulator?: unknown;
  /** A recheck's value of the other side, the provider's now (in place of `emulator`). */
  provider?: unknown;
  /** Why the rules accept this difference on these lines: a waived finding never fails a run. */
  waived?: string;
}

export function kindOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The parent object's path and the field's own name: `answer.body` and `status` from `answer.body.status`. */
function splitField(field: string): [string, string] {
  const dot = field.lastIndexOf('.');
  return [field.slice(0, dot), field.slice(dot + 1)];
}

/** The value of a field only one side has, whichever side that is; any time is one (each side's clock has its own). */
function heldValue(finding: RawFinding): unknown {
  const value = finding.recorded ?? finding.emulator;
  return typeof value === 'string' && timeOffsetOf(value) !== undefined ? '{{time}}' : value;
}

/**
 * Fields removed from an object and found, with the same values, inside an object field added to it are one move: an
 * error body wrapped under `error` is one finding, not a removed field for each of its fields and an added one.
 */
function movesInto(raw: RawFinding[]): RawFinding[] {
  const moved = new Map<RawFinding, RawFinding[]>();
  for (const added of raw) {
    const held = added.kind === 'field-added' ? heldValue(added) : undefined;
    if (typeof held !== 'object' || held === null || Array.isArray(held)) continue;
    const inner = held as Record<string, unknown>;
    const parent = splitField(added.field)[0];
    const members = raw.filter((item) => {
      const [place, name] = splitField(item.field);
      return (
        item.kind === 'field-removed' &&
        item.line === added.line &&
        place === parent &&
        name in inner &&
        JSON.stringify(inner[name]) === JSON.stringify(heldValue(item))
      );
    });
    if (members.length > 0) moved.set(added, members);
  }
  const taken = new Set([...moved.values()].flat());
  return raw.flatMap((finding) => {
    if (taken.has(finding)) return [];
    const members = moved.get(finding);
    if (members === undefined) return [finding];
    const [names, into] = [members.map((item) => splitField(item.field)[1]).join(', '), splitField(finding.field)[1]];
    const [flat, wrapped] = [`${names} at the top`, `${names} inside ${into}`];
    // The added object is the transcript's in a replay, the other side's in a recheck (whose kinds are the provider's).
    const [transcripts, others] = finding.recorded === undefined ? [flat, wrapped] : [wrapped, flat];
    return [
      {
        kind: 'field-renamed' as const,
        line: finding.line,
        field: finding.field,
        message: `moved ${names} into ${into}: the transcript has ${transcripts}, the emulator ${others}`,
        recorded: transcripts,
        emulator: others,
        ...(finding.path === undefined ? {} : { path: finding.path }),
      },
    ];
  });
}

/** A removed field and an added one with the same value in the same object of the same line are one rename. */
function renames(raw: RawFinding[]): RawFinding[] {
  const places = new Map<string, { removed: RawFinding[]; added: RawFinding[] }>();
  for (const finding of raw) {
    if (finding.kind !== 'field-removed' && finding.kind !== 'field-added') continue;
    const key = `${finding.line} ${splitField(finding.field)[0]}`;
    const place = places.get(key) ?? { removed: [], added: [] };
    (finding.kind === 'field-removed' ? place.removed : place.added).push(finding);
    places.set(key, place);
  }
  const paired = new Map<RawFinding, RawFinding>();
  for (const { removed, added } of places.values()) {
    const open = (list: RawFinding[]): RawFinding[] => list.filter((item) => !paired.has(item));
    for (const gone of removed) {
      const same = open(added).find((item) => JSON.stringify(heldValue(item)) === JSON.stringify(heldValue(gone)));
      if (same !== undefined) paired.set(gone, same).set(same, gone);
    }
  }
  return raw.flatMap((finding) => {
    const other = paired.get(finding);
    if (other === undefined) return [finding];
    if (finding.kind === 'field-added') return [];
    const [newName, oldName] = [splitField(other.field)[1], splitField(finding.field)[1]];
    // The removed name is the other side's in a replay, the transcript's in a recheck (whose kinds are the provider's).
    const [transcripts, others] = finding.recorded === undefined ? [newName, oldName] : [oldName, newName];
    return [
      {
        kind: 'field-renamed' as const,
        line: finding.line,
        field: finding.field,
        message: `renamed ${oldName} → ${newName}: the transcript has ${transcripts}, the emulator ${others}`,
        recorded: transcripts,
        emulator: others,
        ...(finding.path === undefined ? {} : { path: finding.path }),
      },
    ];
  });
}

/** The tier the rules give a finding: its kind's, then the last field rule that matches it. */
function tierOf(finding: RawFinding, rules: ParityRules): Tier {
  let tier = rules.tiers[finding.kind];
  for (const rule of rules.fields)
    if (
      rule.field.test(finding.field) &&
      (rule.kind === undefined || rule.kind === finding.kind) &&
      (rule.path === undefined || (finding.path !== undefined && rule.path.test(finding.path)))
    )
      tier = rule.tier;
  return tier;
}

/** A field with its list positions and a webhook's leg left out: what stays the same where one cause recurs. */
function fieldPattern(field: string): string {
  return field
    .replace(/\[\d+\]/g, '[*]')
    .replace(/^webhook (?:\{\{id:\d+\}\} \S*|reply from \S+ ".*")/, 'webhook *')
    .replace(/\{\{id:\d+\}\}/g, '*');
}

/** What makes two findings of one kind one cause: the field, and for some kinds the values on each side. */
function causeOf(finding: RawFinding): string {
  const pattern = fieldPattern(finding.field);
  // A message's field is one field wherever the message shows (an answer, a webhook, a list item): one cause.
  const name = splitField(pattern)[1];
  switch (finding.kind) {
    case 'status':
    case 'error-code':
    case 'error-precedence':
      return `${pattern} ${JSON.stringify([finding.recorded, finding.emulator])}`;
    case 'field-renamed':
      return `${name} ${JSON.stringify([finding.recorded, finding.emulator])}`;
    case 'field-removed':
    case 'field-added':
      return name;
    case 'type-changed':
      return `${name} ${kindOfValue(finding.recorded)} ${kindOfValue(finding.emulator)}`;
    case 'credit-changed':
      // Every place a charge shows (the answer, its webhooks, a list, a read) is one cause: what is charged.
      return splitField(pattern)[1];
    case 'value-changed':
      return timeShape(finding) ?? pattern;
    default:
      return pattern;
  }
}

/** A time one side writes as a time and the other in a shape that is not one: a change of format, wherever it shows. */
function timeShape(finding: RawFinding): string | undefined {
  const [a, b] = [finding.recorded, finding.emulator];
  if (typeof a !== 'string' || typeof b !== 'string') return undefined;
  const [timeA, timeB] = [timeOffsetOf(a) !== undefined, timeOffsetOf(b) !== undefined];
  if (timeA === timeB || /\{\{/.test(timeA ? b : a)) return undefined;
  return `a time written as ${(timeA ? b : a).replace(/\d/g, '9')}`;
}

function linesText(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const shown = lines.slice(0, 8).join(', ');
  return `${lines.length} lines (${shown}${lines.length > 8 ? `, … ${lines.at(-1)}` : ''})`;
}

/** Every finding of a comparison, renames paired, tiered, waived and grouped by cause, in transcript line order. */
export function groupFindings(raw: RawFinding[], rules: ParityRules): Finding[] {
  const groups = new Map<string, { first: RawFinding; tier: Tier; waived?: string; members: RawFinding[] }>();
  for (const finding of renames(movesInto(raw)).sort((a, b) => a.line - b.line)) {
    const tier = tierOf(finding, rules);
    const waived = rules.waive.find(
      (rule) => rule.kind === finding.kind && rule.lines.has(finding.line) && rule.field.test(finding.field),
    )?.reason;
    const key = `${finding.kind} ${tier} ${waived ?? ''} ${causeOf(finding)}`;
    const group = groups.get(key);
    if (group === undefined)
      groups.set(key, { first: finding, tier, ...(waived === undefined ? {} : { waived }), members: [finding] });
    else group.members.push(finding);
  }
  return [...groups.values()].map(({ first, tier, waived, members }) => {
    const lines = [...new Set(members.map((member) => member.line))];
    const fields = new Set(members.map((member) => member.field));
    const field =
      fields.size === 1 ? first.field : [...new Set(members.map((member) => fieldPattern(member.field)))].join(', ');
    const others = new Set(members.map((member) => JSON.stringify([member.recorded, member.emulator]))).size - 1;
    const more = others > 0 ? ` (and ${others} other value${others === 1 ? '' : 's'})` : '';
    return {
      tier,
      kind: first.kind,
      line: first.line,
      lines,
      field,
      message: `${linesText(lines)}: ${field}: ${first.message}${more}${waived === undefined ? '' : ` (waived: ${waived})`}`,
      ...(first.recorded === undefined ? {} : { recorded: first.recorded }),
      ...(first.emulator === undefined ? {} : { emulator: first.emulator }),
      ...(waived === undefined ? {} : { waived }),
    };
  });
}
