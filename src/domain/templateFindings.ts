/** What a template text costs once its placeholders are filled, and what is wrong with it: a character that leaves GSM-7, or more segments than the team's budget. */

import { type CostExplanation, explainCost } from './costExplanation.js';

/** How a team checks its templates. */
export interface TemplateRules {
  /** A placeholder (`{name}`, `{{code}}`, `%s`, `%1$s`, `%(name)s`, `${name}`) counts as this many GSM-7 characters. */
  placeholderLength: number;
  /** More segments than this is a finding; undefined for no budget. */
  maxSegments?: number;
  /** Every text must stay GSM-7: a character with no GSM-7 equivalent (a name in Greek, an emoji) is a finding too. */
  gsm7Only: boolean;
}

/**
 * The placeholders of the usual template and translation formats. `%%` is matched to be kept as written (printf's
 * percent sign), and printf's space flag is left out: with it, the "% d" of "50% discount" would be a placeholder.
 */
const placeholders =
  /%%|\{\{[^{}]*\}\}|\$\{[^{}]*\}|\{[A-Za-z0-9_.:-]*\}|%\([A-Za-z0-9_]+\)[sdif]|%(?:\d+\$)?[-+0#]*\d*(?:\.\d+)?[sdifu@]/g;

/** One finding in one text. */
export interface TemplateFinding {
  kind: 'ucs2' | 'segments';
  /** For `ucs2`: the character, its code point, name, 1-based position in the text as written, and the GSM-7 text meant. */
  char?: string;
  codePoint?: string;
  name?: string | null;
  position?: number;
  suggestion?: string | null;
  /** Encoding and segments of the text with its placeholders filled. */
  encoding: CostExplanation['encoding'];
  segments: number;
  /** Segments with every suggestion applied (for `ucs2`), or the budget (for `segments`). */
  fixedSegments: number;
  /** Credits per recipient the fix saves (0 when there is none). */
  creditDelta: number;
  /** What to do, in one sentence. */
  fix: string;
}

/** The text as sent, with each placeholder filled by `length` GSM-7 characters, and a position in it mapped back to the template. */
function filled(text: string, length: number): { text: string; original: (position: number) => number } {
  const shifts: { after: number; by: number }[] = [];
  let out = '';
  let outChars = 0;
  let last = 0;
  for (const match of text.matchAll(placeholders)) {
    if (match[0] === '%%') continue;
    const before = text.slice(last, match.index);
    out += before + 'x'.repeat(length);
    outChars += [...before].length + length;
    shifts.push({ after: outChars, by: length - [...match[0]].length });
    last = match.index + match[0].length;
  }
  out += text.slice(last);
  // The filled characters are GSM-7, so every trigger stands outside them: shifted by the placeholders before it.
  const original = (position: number): number =>
    shifts.reduce((at, shift) => (position > shift.after ? at - shift.by : at), position);
  return { text: out, original };
}

/** Every finding of one template text under `rules` (empty when it is fine). */
export function templateFindings(text: string, rules: TemplateRules): TemplateFinding[] {
  const sent = filled(text, rules.placeholderLength);
  const cost = explainCost(sent.text);
  const findings: TemplateFinding[] = [];
  const fixedSegments = cost.fix?.segments ?? cost.segments;
  const creditDelta = cost.credits - (cost.fix?.credits ?? cost.credits);
  const accidental = cost.triggers.some((trigger) => trigger.suggestion !== null);
  const kept = cost.triggers.find((trigger) => trigger.suggestion === null);
  const outcome =
    kept !== undefined
      ? ` (the text stays UCS-2: ${kept.codePoint} has no GSM-7 equivalent)`
      : creditDelta > 0
        ? `: ${cost.segments} → ${fixedSegments} segments, ${creditDelta} credit${creditDelta === 1 ? '' : 's'} less per recipient`
        : ' (the same segments, but GSM-7)';
  if (cost.encoding === 'UCS-2' && (accidental || rules.gsm7Only))
    for (const trigger of cost.triggers) {
      if (trigger.suggestion === null && !rules.gsm7Only) continue;
      findings.push({
        kind: 'ucs2',
        char: trigger.char,
        codePoint: trigger.codePoint,
        name: trigger.name,
        position: sent.original(trigger.position),
        suggestion: trigger.suggestion,
        encoding: cost.encoding,
        segments: cost.segments,
        fixedSegments,
        creditDelta,
        fix:
          trigger.suggestion === null
            ? `${trigger.codePoint} has no GSM-7 equivalent: rewrite the text without it to stay GSM-7`
            : `replace ${trigger.codePoint} with ${JSON.stringify(trigger.suggestion)}${outcome}`,
      });
    }
  if (rules.maxSegments !== undefined && cost.segments > rules.maxSegments)
    findings.push({
      kind: 'segments',
      encoding: cost.encoding,
      segments: cost.segments,
      fixedSegments: rules.maxSegments,
      creditDelta: cost.segments - rules.maxSegments,
      fix: `${cost.segments} segments (${cost.encoding}, ${cost.units} units with placeholders at ${rules.placeholderLength}) is over the budget of ${rules.maxSegments}: shorten the text${cost.encoding === 'UCS-2' ? ' or make it GSM-7' : ''}`,
    });
  return findings;
}
