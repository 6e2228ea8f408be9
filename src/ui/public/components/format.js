// @ts-check
// Small pieces of markup the views share: a status chip, a time, a message's encoding, cost and marked text, a history, webhook tries.

import { esc } from './dom.js';

/** The icon drawn beside each status the feed names (leg, message and webhook states); any other gets a dot. */
/** @type {Record<string, string>} */
const statusIcons = {
  scheduled: '◷',
  pending: '○',
  staged: '◔',
  submitted: '◑',
  delivered: '✓',
  undelivered: '✕',
  expired: '⌛',
  blist: '⊘',
  noroute: '⤫',
  failed: '✕',
  cancelled: '⊖',
  deleted: '⌫',
  skipped: '–',
  delayed: '◷',
};

/** @param {string} status */
export function chip(status) {
  const icon = statusIcons[status] ?? '•';
  return `<span class="chip s-${esc(status)}"><span aria-hidden="true">${icon}</span> ${esc(status)}</span>`;
}

/** @param {string | null | undefined} iso an emulator-clock time */
export function clockTime(iso) {
  if (!iso) return '';
  return `<time datetime="${esc(iso)}" title="${esc(iso)}">${esc(iso.slice(5, 10))} ${esc(iso.slice(11, 19))}</time>`;
}

/** @param {import('../types.js').MessageView} message */
export function encodingText(message) {
  const segments = `${message.segments} segment${message.segments === 1 ? '' : 's'}`;
  if (message.encoding !== 'UCS-2') return `${segments} · GSM-7`;
  const code = message.ucs2_trigger?.codePointAt(0);
  const trigger =
    message.ucs2_trigger && code !== undefined
      ? ` (forced by “${esc(message.ucs2_trigger)}” U+${code.toString(16).toUpperCase().padStart(4, '0')})`
      : '';
  return `${segments} · UCS-2${trigger}`;
}

/**
 * What the message cost and why: `2 credits · 18 UTF-16 units × 2 recipients`.
 * @param {import('../types.js').MessageView} message
 */
export function costText(message) {
  const credits = `${message.credit} credit${message.credit === 1 ? '' : 's'}`;
  const units = `${message.units} ${message.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}`;
  const recipients = message.recipient.length;
  return `${credits} · ${units}${recipients === 1 ? '' : ` × ${recipients} recipients`}`;
}

/**
 * The message's text, escaped, each character that forced UCS-2 in a `<mark>` titled as the cost breakdown names it
 * (`position 3: "’" U+2019 RIGHT SINGLE QUOTATION MARK, use "'"`, the emulator's words in src/domain/costBreakdown.ts).
 * @param {import('../types.js').MessageView} message
 */
export function markedText(message) {
  const text = message.message;
  let html = '';
  let at = 0;
  for (const trigger of message.triggers) {
    const name = trigger.name === null ? '' : ` ${trigger.name}`;
    const meant =
      trigger.suggestion === null ? ' (no GSM-7 equivalent)' : `, use ${JSON.stringify(trigger.suggestion)}`;
    const title = `position ${trigger.position}: ${JSON.stringify(trigger.char)} ${trigger.codePoint}${name}${meant}`;
    html += `${esc(text.slice(at, trigger.index))}<mark title="${esc(title)}">${esc(trigger.char)}</mark>`;
    at = trigger.index + trigger.char.length;
  }
  return html + esc(text.slice(at));
}

/** @param {import('../types.js').ChangeView[]} changes */
export function historyList(changes) {
  if (!changes.length) return '<span class="muted">none</span>';
  return `<ol class="steps-list">${changes.map((change) => `<li>${chip(change.status)} ${clockTime(change.at)}</li>`).join('')}</ol>`;
}

/** @param {import('../types.js').WebhookEvent} event */
export function webhookTries(event) {
  if (!event.attempts.length)
    return `<span class="muted">${event.state === 'skipped' ? 'not posted: no webhook URL' : 'no try yet'}</span>`;
  return `<ol class="tries">${event.attempts
    .map(
      (attempt) =>
        `<li class="${attempt.ok ? 'ok' : 'bad'}">${attempt.ok ? '✓' : '✕'} try ${attempt.number}: ${attempt.status === undefined ? esc(attempt.error ?? 'no answer') : `HTTP ${attempt.status}`} in ${attempt.durationMs} ms · ${clockTime(attempt.at)}</li>`,
    )
    .join('')}</ol>`;
}
