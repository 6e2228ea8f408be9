// @ts-check
// The message page: legs, histories, upcoming steps, webhook tries, the request that created it, and a force-outcome form.

import { act, control } from '../control.js';
import { $, esc, field } from '../components/dom.js';
import {
  chip,
  clockTime,
  costText,
  encodingText,
  historyList,
  markedText,
  webhookTries,
} from '../components/format.js';
import { route } from '../router.js';
import { changed, keepMessage, state } from '../store.js';
import { threadKey } from './inbox.js';

/** @param {string} id */
export function renderMessagePage(id) {
  const message = state.messages.get(id);
  const box = $('message-detail');
  if (!message) {
    $('message-title').textContent = `Message ${id}`;
    box.innerHTML = '<p class="muted">Loading…</p>';
    loadMessage(id);
    return;
  }
  $('message-title').textContent = `Message ${message.id}`;
  const recipient = message.legs[0]?.recipient ?? '';
  /** @type {HTMLAnchorElement} */ ($('back-to-thread')).href =
    `#/inbox/${encodeURIComponent(threadKey(message.environment, message.account, recipient))}`;
  const events = [...state.webhooks.values()].filter((event) => event.messageId === message.id);
  const journal = state.journal.get(id);
  /** @type {readonly string[]} */
  const finalStatuses = state.lists.finalStatuses;
  const open = message.legs.filter((leg) => !finalStatuses.includes(leg.status));
  const html = `
    <p>${chip(message.status)} <span class="text-block">${markedText(message)}</span></p>
    <dl class="facts">
      <dt>Account</dt><dd>${esc(message.account)} · ${esc(message.environment)}</dd>
      <dt>Encoding</dt><dd>${encodingText(message)}</dd>
      <dt>Cost</dt><dd>${costText(message)}</dd>
      <dt>Created</dt><dd>${clockTime(message.creation_date)}</dd>
      ${message.schedule ? `<dt>Scheduled for</dt><dd>${clockTime(message.schedule)}</dd>` : ''}
      ${message.client_reference ? `<dt>Client reference</dt><dd>${esc(message.client_reference)}</dd>` : ''}
    </dl>
    <h3>Legs</h3>
    <div class="table-wrap"><table><thead><tr><th scope="col">Recipient</th><th scope="col">Status</th><th scope="col">History</th><th scope="col">Upcoming steps</th></tr></thead><tbody>
      ${message.legs.map((leg) => `<tr><td>${esc(leg.recipient)}</td><td>${chip(leg.status)}</td><td>${historyList(leg.history)}</td><td>${historyList(leg.upcoming)}</td></tr>`).join('')}
    </tbody></table></div>
    <h3>Message status history</h3>${historyList(message.history)}
    <h3>Force an outcome</h3>
    ${
      open.length
        ? `<form id="force-form" class="inline-form"><label for="force-status">Outcome</label>
            <select id="force-status">${finalStatuses.map((status) => `<option>${status}</option>`).join('')}</select>
            <label for="force-recipient">Legs</label>
            <select id="force-recipient"><option value="">every open leg</option>${open.map((leg) => `<option>${esc(leg.recipient)}</option>`).join('')}</select>
            <button type="submit">Force outcome</button></form>`
        : '<p class="muted">Every leg has its final outcome.</p>'
    }
    <h3>Webhook tries</h3>
    ${events.length ? `<ul class="events">${events.map((event) => `<li class="${event.state === 'failed' ? 'failed' : ''}">${esc(event.kind)} (${esc(event.status)}) to ${esc(event.recipient)} ${chip(event.state)}${webhookTries(event)}</li>`).join('')}</ul>` : '<p class="muted">No webhook events for this message.</p>'}
    <h3>Request that created it</h3>
    ${journalView(journal)}`;
  const focused = document.activeElement?.id;
  const keepForm =
    document.getElementById('force-form') && box.dataset.id === id && box.dataset.open === String(open.length);
  if (box.dataset.html === html && box.dataset.id === id) return;
  // The form is left alone while it is in use, so a live update does not reset a choice being made.
  if (keepForm) {
    const form = $('force-form');
    box.innerHTML = html;
    $('force-form').replaceWith(form);
  } else box.innerHTML = html;
  box.dataset.html = html;
  box.dataset.id = id;
  box.dataset.open = String(open.length);
  if (focused) document.getElementById(focused)?.focus();
  if (!state.journal.has(id)) loadJournal(id);
}

/** @param {import('../types.js').JournalLookup | undefined} journal */
function journalView(journal) {
  if (journal === undefined) return '<p class="muted">Looking in the request journal…</p>';
  if (journal.unavailable) return `<p class="muted">${esc(journal.unavailable)}</p>`;
  if (!journal.entry)
    return '<p class="muted">The request journal has no entry for this message (it may have been trimmed).</p>';
  const entry = journal.entry;
  return `<p><code>${esc(entry.method)} ${esc(entry.path)}</code> → ${esc(entry.status)} ${esc(entry.code ?? '')} · ${clockTime(entry.time)} · ${esc(entry.durationMs)} ms</p>
    <pre class="body">${esc(JSON.stringify(entry.requestBody, null, 2))}</pre>`;
}

/** A message older than the stream's window is fetched on its own. @param {string} id */
async function loadMessage(id) {
  try {
    keepMessage(await control('GET', `/messages/${encodeURIComponent(id)}`));
  } catch (error) {
    $('message-detail').innerHTML = `<p class="error">⚠ ${esc(/** @type {Error} */ (error).message)}</p>`;
    return;
  }
  changed();
}

/** @param {string} id */
async function loadJournal(id) {
  state.journal.set(id, undefined);
  /** @type {import('../types.js').JournalLookup} */
  let journal;
  try {
    const answer = await control('GET', `/requests?message=${encodeURIComponent(id)}&method=POST`);
    const items = answer.items ?? answer.requests ?? [];
    journal = { entry: items[0] };
  } catch (error) {
    const failure = /** @type {import('../control.js').ControlFailure} */ (error);
    journal = {
      unavailable:
        failure.status === 404
          ? 'This emulator keeps no request journal.'
          : `The request journal could not be read: ${failure.message}`,
    };
  }
  state.journal.set(id, journal);
  changed();
}

export function wireMessage() {
  document.addEventListener('submit', (event) => {
    if (/** @type {HTMLElement} */ (event.target).id !== 'force-form') return;
    event.preventDefault();
    const current = route();
    if (current.page !== 'message') return;
    const recipient = field('force-recipient').value;
    const body = { status: field('force-status').value, ...(recipient ? { recipient } : {}) };
    act(`Force ${body.status}`, () => control('POST', `/messages/${encodeURIComponent(current.id)}/status`, body)).then(
      (message) => {
        if (message?.id) keepMessage(message);
        changed();
      },
    );
  });
}
