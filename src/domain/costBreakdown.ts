/** The breakdown every cost failure shows (the vitest matchers, the kits' assertions, the `cost` answer): one wording, written once. */

import { plural } from './plural.js';
import type { Encoding } from './segments.js';

/** The most triggers a breakdown names one by one; the rest are counted. */
const namedTriggers = 10;
/** The most characters of the text a breakdown quotes. */
const quotedChars = 80;

/** What the breakdown reads of a character that forced UCS-2. */
export interface TriggerFacts {
  readonly char: string;
  readonly codePoint: string;
  readonly name: string | null;
  readonly position: number;
  readonly suggestion: string | null;
}

/** What the breakdown reads of a cost explanation (explainCost's facts, before its breakdown is written). */
export interface CostFacts {
  readonly encoding: Encoding;
  readonly units: number;
  readonly segments: number;
  readonly triggers: readonly TriggerFacts[];
  readonly fix: { readonly encoding: Encoding; readonly segments: number } | null;
}

/** One trigger as the breakdown names it: `position 3: "’" U+2019 RIGHT SINGLE QUOTATION MARK, use "'"` (the report's marks say it too). */
export function triggerLine(trigger: TriggerFacts): string {
  const name = trigger.name === null ? '' : ` ${trigger.name}`;
  const meant = trigger.suggestion === null ? ' (no GSM-7 equivalent)' : `, use ${JSON.stringify(trigger.suggestion)}`;
  return `position ${trigger.position}: ${JSON.stringify(trigger.char)} ${trigger.codePoint}${name}${meant}`;
}

/**
 * Encoding, units, segments and the text, then each trigger with its position, code point, name and what was meant,
 * then what the text costs with those replaced.
 * @example costBreakdown('It’s ready', explainCost('It’s ready'))
 * // UCS-2, 10 UTF-16 units, 1 segment: "It’s ready"
 * //   position 3: "’" U+2019 RIGHT SINGLE QUOTATION MARK, use "'"
 * //   with those replaced: GSM-7, 1 segment
 */
export function costBreakdown(text: string, facts: CostFacts): string {
  const chars = [...text];
  const excerpt = chars.length > quotedChars ? `${chars.slice(0, quotedChars).join('')}…` : text;
  const head = `${facts.encoding}, ${facts.units} ${facts.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}, ${plural(facts.segments, 'segment')}: ${JSON.stringify(excerpt)}`;
  const triggers = facts.triggers
    .slice(0, namedTriggers)
    .map((trigger) => `\n  ${triggerLine(trigger)}`)
    .join('');
  const more = facts.triggers.length > namedTriggers ? `\n  … and ${facts.triggers.length - namedTriggers} more` : '';
  const fix =
    facts.fix === null
      ? ''
      : `\n  with those replaced: ${facts.fix.encoding}, ${plural(facts.fix.segments, 'segment')}`;
  return `${head}${triggers}${more}${fix}`;
}
