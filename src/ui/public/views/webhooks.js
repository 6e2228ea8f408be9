// @ts-check
// The webhook log page: every event newest first, failed ones marked, each redeliverable; and the failed count in the menu.

import { act, control } from '../control.js';
import { $, esc, field } from '../components/dom.js';
import { chip, clockTime, webhookTries } from '../components/format.js';
import { renderList } from '../components/renderList.js';
import { changed, limits, state } from '../store.js';

export function renderWebhooks() {
  const failedOnly = field('failed-only').checked;
  const events = [...state.webhooks.values()]
    .reverse()
    .filter((event) => !failedOnly || event.state === 'failed')
    .slice(0, limits.rows);
  $('webhooks-empty').hidden = events.length > 0;
  renderList(
    $('webhook-rows'),
    events,
    'tr',
    (event) => event.id,
    (event) => [
      event.state === 'failed' ? 'failed' : '',
      `<td>${clockTime(event.createdAt)}</td>
       <td>${esc(event.kind)} · ${esc(event.status)}${event.behaviours.length ? ` <span class="tag">${esc(event.behaviours.join(', '))}</span>` : ''}</td>
       <td><a href="#/message/${encodeURIComponent(event.messageId)}">${esc(event.messageId.slice(0, 8))}…</a> to ${esc(event.recipient)}</td>
       <td class="url">${esc(event.url ?? '(no webhook URL)')}</td>
       <td>${event.state === 'failed' ? '<strong>⚠ failed</strong>' : chip(event.state)}</td>
       <td>${webhookTries(event)}</td>
       <td>${event.url ? `<button type="button" data-redeliver="${esc(event.id)}">Redeliver<span class="visually-hidden"> event ${esc(event.id)}</span></button>` : ''}</td>`,
    ],
  );
}

/** The menu's count of failed events, shown on every page. */
export function renderFailedCount() {
  const failed = [...state.webhooks.values()].filter((event) => event.state === 'failed').length;
  $('failed-count').hidden = failed === 0;
  $('failed-count').textContent = `⚠ ${failed} failed`;
}

export function wireWebhooks() {
  $('failed-only').addEventListener('change', changed);
  document.addEventListener('click', (event) => {
    const redeliver = /** @type {HTMLElement | null} */ (
      /** @type {HTMLElement} */ (event.target).closest('[data-redeliver]')
    );
    const id = redeliver?.dataset.redeliver;
    if (id !== undefined)
      act('Redeliver the webhook event', () => control('POST', `/webhooks/${encodeURIComponent(id)}/redeliver`));
  });
}
