/** Why a text costs what it costs: its encoding, units and segments, the characters that forced UCS-2 with what a team usually meant, and the credits. */

import { z } from 'zod';
import { costBreakdown } from './costBreakdown.js';
import { countSegments, encodings, isGsm7Character, pricings, type Pricing, sendCost } from './segments.js';

/** A character that forced a text out of GSM-7. */
export const costTriggerSchema = z.strictObject({
  char: z
    .string()
    .describe('The character as it stands in the text (a combining mark alone when the text was decomposed).'),
  codePoint: z.string().describe('`U+2019`.'),
  name: z.string().nullable().describe('Its Unicode name, where the emulator knows it (the usual traps).'),
  position: z
    .int()
    .describe("Where it stands: 1-based, counted in characters (code points), as an editor's column counts them."),
  index: z.int().describe('Its UTF-16 offset (0-based), as a JavaScript string indexes it.'),
  suggestion: z
    .string()
    .nullable()
    .describe(
      "The GSM-7 text a team usually meant here (`'` for `’`, `é` for `e` + a combining acute), or null when there is none.",
    ),
});
export type CostTrigger = z.output<typeof costTriggerSchema>;

/** The one answer to "why does this text cost that". */
export const costExplanationSchema = z.strictObject({
  encoding: z.enum(encodings),
  units: z.int().describe('Septets for GSM-7, UTF-16 code units for UCS-2.'),
  segments: z.int(),
  recipients: z.int(),
  pricing: z.enum(pricings),
  credits: z.int().describe('What a send of the text to `recipients` numbers costs under `pricing`.'),
  triggers: z
    .array(costTriggerSchema)
    .describe('Every character that forced UCS-2, in text order (empty for a GSM-7 text).'),
  fix: z
    .strictObject({ text: z.string(), encoding: z.enum(encodings), segments: z.int(), credits: z.int() })
    .nullable()
    .describe(
      'The text with every suggestion applied and what it would cost; null for a GSM-7 text or when a trigger has no suggestion.',
    ),
  breakdown: z
    .string()
    .describe(
      'The same as the text every cost failure shows: encoding, units, segments and the text, a line per trigger (position, code point, name, what was meant; ten at most), and what the text costs with those replaced.',
    ),
});
export type CostExplanation = z.output<typeof costExplanationSchema>;

/** The usual traps: the character pasted from a word processor or a translator's tool, and the GSM-7 text meant. */
const traps: ReadonlyMap<string, { name: string; meant: string }> = new Map([
  ['\u2018', { name: 'LEFT SINGLE QUOTATION MARK', meant: "'" }],
  ['\u2019', { name: 'RIGHT SINGLE QUOTATION MARK', meant: "'" }],
  ['\u201A', { name: 'SINGLE LOW-9 QUOTATION MARK', meant: "'" }],
  ['\u201B', { name: 'SINGLE HIGH-REVERSED-9 QUOTATION MARK', meant: "'" }],
  ['\u2032', { name: 'PRIME', meant: "'" }],
  ['\u00B4', { name: 'ACUTE ACCENT', meant: "'" }],
  ['\u0060', { name: 'GRAVE ACCENT', meant: "'" }],
  ['\u201C', { name: 'LEFT DOUBLE QUOTATION MARK', meant: '"' }],
  ['\u201D', { name: 'RIGHT DOUBLE QUOTATION MARK', meant: '"' }],
  ['\u201E', { name: 'DOUBLE LOW-9 QUOTATION MARK', meant: '"' }],
  ['\u2033', { name: 'DOUBLE PRIME', meant: '"' }],
  ['\u00AB', { name: 'LEFT-POINTING DOUBLE ANGLE QUOTATION MARK', meant: '"' }],
  ['\u00BB', { name: 'RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK', meant: '"' }],
  ['\u2010', { name: 'HYPHEN', meant: '-' }],
  ['\u2011', { name: 'NON-BREAKING HYPHEN', meant: '-' }],
  ['\u2012', { name: 'FIGURE DASH', meant: '-' }],
  ['\u2013', { name: 'EN DASH', meant: '-' }],
  ['\u2014', { name: 'EM DASH', meant: '-' }],
  ['\u2015', { name: 'HORIZONTAL BAR', meant: '-' }],
  ['\u2212', { name: 'MINUS SIGN', meant: '-' }],
  ['\u2026', { name: 'HORIZONTAL ELLIPSIS', meant: '...' }],
  ['\u00A0', { name: 'NO-BREAK SPACE', meant: ' ' }],
  ['\u2002', { name: 'EN SPACE', meant: ' ' }],
  ['\u2003', { name: 'EM SPACE', meant: ' ' }],
  ['\u2009', { name: 'THIN SPACE', meant: ' ' }],
  ['\u200A', { name: 'HAIR SPACE', meant: ' ' }],
  ['\u202F', { name: 'NARROW NO-BREAK SPACE', meant: ' ' }],
  ['\u3000', { name: 'IDEOGRAPHIC SPACE', meant: ' ' }],
  ['\u200B', { name: 'ZERO WIDTH SPACE', meant: '' }],
  ['\u2060', { name: 'WORD JOINER', meant: '' }],
  ['\uFEFF', { name: 'ZERO WIDTH NO-BREAK SPACE', meant: '' }],
  ['\u00AD', { name: 'SOFT HYPHEN', meant: '' }],
  ['\u2022', { name: 'BULLET', meant: '-' }],
  ['\u0301', { name: 'COMBINING ACUTE ACCENT', meant: '' }],
  ['\u0300', { name: 'COMBINING GRAVE ACCENT', meant: '' }],
  ['\u0308', { name: 'COMBINING DIAERESIS', meant: '' }],
  ['\u0303', { name: 'COMBINING TILDE', meant: '' }],
  ['\u0327', { name: 'COMBINING CEDILLA', meant: '' }],
  ['\u030A', { name: 'COMBINING RING ABOVE', meant: '' }],
]);

function codePointOf(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The GSM-7 text meant by a character outside GSM-7 at `chars[at]`: a combining mark that composes with the character
 * before it into a GSM-7 one (`e` + U+0301 is `é`) means that composed character in place of both; a known trap
 * means its replacement; anything else has none.
 */
function meant(chars: readonly string[], at: number): { replaces: number; text: string } | null {
  const char = chars[at] ?? '';
  const before = at > 0 ? chars[at - 1] : undefined;
  if (before !== undefined && /\p{M}/u.test(char)) {
    const composed = (before + char).normalize('NFC');
    if ([...composed].length === 1 && isGsm7Character(composed)) return { replaces: 2, text: composed };
  }
  const trap = traps.get(char);
  return trap === undefined ? null : { replaces: 1, text: trap.meant };
}

/**
 * Why `text` costs what it costs when sent to `recipients` numbers under `pricing`: the encoding, units and segments
 * (countSegments), every character that forced UCS-2 with its position and the GSM-7 text usually meant, the credits
 * (sendCost), and what the text would cost with every suggestion applied.
 * @example explainCost('It’s here', { recipients: 2 }).triggers[0] // { char: '’', codePoint: 'U+2019', position: 3, suggestion: "'", … }
 */
export function explainCost(text: string, options: { recipients?: number; pricing?: Pricing } = {}): CostExplanation {
  const recipients = options.recipients ?? 1;
  const pricing = options.pricing ?? 'per-segment';
  const { encoding, units, segments } = countSegments(text);
  const credits = sendCost(text, recipients, pricing);
  const chars = [...text];
  const triggers: CostTrigger[] = [];
  const fixed: string[] = [];
  let fixable = true;
  let index = 0;
  for (let at = 0; at < chars.length; at += 1) {
    const char = chars[at] ?? '';
    if (isGsm7Character(char)) fixed.push(char);
    else {
      const replacement = meant(chars, at);
      triggers.push({
        char,
        codePoint: codePointOf(char),
        name: traps.get(char)?.name ?? null,
        position: at + 1,
        index,
        suggestion: replacement?.text ?? null,
      });
      if (replacement === null) fixable = false;
      else {
        if (replacement.replaces === 2) fixed.pop();
        fixed.push(replacement.text);
      }
    }
    index += char.length;
  }
  const fixText = fixed.join('');
  const fixCount = countSegments(fixText);
  const fix =
    triggers.length === 0 || !fixable
      ? null
      : {
          text: fixText,
          encoding: fixCount.encoding,
          segments: fixCount.segments,
          credits: sendCost(fixText, recipients, pricing),
        };
  const facts = { encoding, units, segments, recipients, pricing, credits, triggers, fix };
  return { ...facts, breakdown: costBreakdown(text, facts) };
}
