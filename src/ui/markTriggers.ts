/** A message's text as HTML with each character that forced UCS-2 in a `<mark>` whose title names it (the timeline report). */

import { triggerLine } from '../domain/costBreakdown.js';
import type { CostTrigger } from '../domain/costExplanation.js';
import { escapeHtml } from './escapeHtml.js';

/**
 * `text` escaped, each trigger (found by its UTF-16 `index`) wrapped in `<mark title="position 3: "’" U+2019 …, use "'"">`.
 * @example markTriggers('It’s', explainCost('It’s').triggers) // 'It<mark title="position 3: &quot;’&quot; U+2019 …">’</mark>s'
 */
export function markTriggers(text: string, triggers: readonly CostTrigger[]): string {
  let html = '';
  let at = 0;
  for (const trigger of triggers) {
    html += `${escapeHtml(text.slice(at, trigger.index))}<mark title="${escapeHtml(triggerLine(trigger))}">${escapeHtml(trigger.char)}</mark>`;
    at = trigger.index + trigger.char.length;
  }
  return html + escapeHtml(text.slice(at));
}
