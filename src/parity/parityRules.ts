/**
 * A parity rules file: which fields to ignore, how to normalise values before they are compared, how far apart two
 * times may be, and a tier for each kind of finding. YAML or JSON, versioned like scenario files.
 */

import { z } from 'zod';
import { lazyPackage } from '../lazyPackage.js';
import { durationSchema } from '../domain/durationSchema.js';
import { parseDuration } from '../domain/time.js';

export const findingKinds = [
  'status',
  'error-code',
  'error-precedence',
  'field-added',
  'field-removed',
  'field-renamed',
  'type-changed',
  'value-changed',
  'credit-changed',
  'retry-after',
  'webhook-missing',
  'webhook-status-changed',
  'webhook-extra',
  'webhook-reordered',
  'webhook-duplicated',
  'reply-unmatched',
  'schema-violation',
] as const;
export type FindingKind = (typeof findingKinds)[number];

export const tiers = ['info', 'warn', 'error'] as const;
export type Tier = (typeof tiers)[number];

/**
 * Each kind is named for what the provider (the transcript) does that the emulator does not: `field-added` is a field
 * only the transcript has, `field-removed` one only the emulator has, `webhook-missing` a notification only the
 * emulator posts, `webhook-extra` one only the transcript has. Money, status, errors, types and a notification the
 * integration waits for in vain or a leg's status posted as another word are errors; a field no longer sent, a changed value, webhooks out of step are warnings;
 * what the provider added and a different back-off are information.
 */
export const defaultTiers: Readonly<Record<FindingKind, Tier>> = {
  status: 'error',
  'error-code': 'error',
  'error-precedence': 'error',
  'field-added': 'info',
  'field-removed': 'warn',
  'field-renamed': 'warn',
  'type-changed': 'error',
  'value-changed': 'warn',
  'credit-changed': 'error',
  'retry-after': 'info',
  'webhook-missing': 'error',
  'webhook-status-changed': 'error',
  'webhook-extra': 'warn',
  'webhook-reordered': 'warn',
  'webhook-duplicated': 'warn',
  'reply-unmatched': 'error',
  'schema-violation': 'error',
};

const fieldPattern = z
  .string()
  .min(1)
  .describe('A field path such as answer.body.list[*].status or webhook.payload._links: * is one step, ** any.');

const requestPathPattern = z
  .string()
  .startsWith('/')
  .describe('A request path such as /v1/messages or /v1/messages/*: * is one segment, ** any number.');

export const parityRulesSchema = z.strictObject({
  version: z.literal(1).describe('The rules format version.'),
  ignore: z.array(fieldPattern).default([]).describe('Fields left out of the comparison.'),
  normalise: z
    .array(
      z.strictObject({
        field: fieldPattern,
        pattern: z.string().describe('A regular expression; every match is replaced on both sides.'),
        replacement: z.string().default(''),
      }),
    )
    .default([]),
  timeTolerance: durationSchema
    .default('2s')
    .transform((value) => parseDuration(value) as number)
    .describe('How far apart two times may be and still count as equal.'),
  tiers: z.partialRecord(z.enum(findingKinds), z.enum(tiers)).default({}),
  fields: z
    .array(
      z.strictObject({
        field: fieldPattern,
        kind: z.enum(findingKinds).optional().describe('Only this kind of finding on the field (default: every kind).'),
        path: requestPathPattern.optional(),
        tier: z.enum(tiers),
      }),
    )
    .default([])
    .describe(
      'A tier for the findings on a field (of one kind, on one request path); the last rule that matches wins.',
    ),
  waive: z
    .array(
      z.strictObject({
        kind: z.enum(findingKinds),
        field: fieldPattern,
        lines: z.array(z.number().int().min(1)).min(1).describe('The transcript lines the waiver covers.'),
        reason: z.string().trim().min(1).describe('Why the difference is accepted: shown in every report.'),
      }),
    )
    .default([])
    .describe('Known differences accepted on named lines: reported as waived, never failing a run.'),
});
export type ParityRulesInput = z.input<typeof parityRulesSchema>;

export interface ParityRules {
  ignore: RegExp[];
  normalise: { field: RegExp; pattern: RegExp; replacement: string }[];
  timeToleranceMs: number;
  tiers: Record<FindingKind, Tier>;
  fields: { field: RegExp; kind?: FindingKind; path?: RegExp; tier: Tier }[];
  waive: { kind: FindingKind; field: RegExp; lines: ReadonlySet<number>; reason: string }[];
}

/** A glob as a regular expression: `*` is one step (no `separator` in it), `**` any number; `end` closes the match. */
function globRegExp(pattern: string, separator: string, end: string): RegExp {
  const escaped = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join(`[^${separator}]*`),
    )
    .join('.*');
  return new RegExp(`^${escaped}${end}`);
}

/** `answer.body.list[*].status` → a regular expression over field paths; it names the field and everything inside it. */
const fieldRegExp = (pattern: string): RegExp => globRegExp(pattern, '.', '(?:$|[.[])');

/** `/v1/messages/*` → a regular expression over request paths. */
const pathRegExp = (pattern: string): RegExp => globRegExp(pattern, '/', '$');

/** A rules file's text (YAML or JSON) or object, checked; every problem is named. */
export function parityRules(input: string | ParityRulesInput | undefined): ParityRules {
  let value: unknown = input ?? { version: 1 };
  if (typeof input === 'string') {
    try {
      value = lazyPackage('yaml').parse(input) as unknown;
    } catch (error) {
      throw new Error(`the rules file is not YAML or JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  const checked = parityRulesSchema.safeParse(value);
  if (!checked.success)
    throw new Error(
      `the rules file is not valid: ${checked.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ')}`,
    );
  const rules = checked.data;
  const normalise = rules.normalise.map((rule) => {
    let pattern: RegExp;
    try {
      pattern = new RegExp(rule.pattern, 'g');
    } catch (error) {
      throw new Error(
        `the rules file's normalise pattern ${JSON.stringify(rule.pattern)} is not a regular expression: ${(error as Error).message}`,
        { cause: error },
      );
    }
    return { field: fieldRegExp(rule.field), pattern, replacement: rule.replacement };
  });
  return {
    ignore: rules.ignore.map(fieldRegExp),
    normalise,
    timeToleranceMs: rules.timeTolerance,
    tiers: { ...defaultTiers, ...rules.tiers },
    fields: rules.fields.map((rule) => ({
      field: fieldRegExp(rule.field),
      ...(rule.kind === undefined ? {} : { kind: rule.kind }),
      ...(rule.path === undefined ? {} : { path: pathRegExp(rule.path) }),
      tier: rule.tier,
    })),
    waive: rules.waive.map((rule) => ({
      kind: rule.kind,
      field: fieldRegExp(rule.field),
      lines: new Set(rule.lines),
      reason: rule.reason,
    })),
  };
}
