// @ts-check
// The inbox page: conversations (one per account, environment and recipient) and the open one as bubbles, with a reply box.

import { act, control } from '../control.js';
import { $, esc, field } from '../components/dom.js';
import { chip, clockTime, costText, encodingText, markedText } from '../components/format.js';
import { clearList, renderList } from '../components/renderList.js';
import { route } from '../router.js';
import { changed, limits, state } from '../store.js';

/** @typedef {import('../types.js').MessageView} MessageView */
/** @typedef {{ kind: 'sent', message: MessageView, leg: import('../types.js').LegView, at: string } | { kind: 'reply', message: MessageView, at: string }} Item */
/** @typedef {MessageView['environment']} Environment */
/** @typedef {{ key: string, environment: Environment, account: string, recipient: string, items: Item[], last: string, arrival: number }} Thread */

/**
 * @param {Environment} environment
 * @param {string} account
 * @param {string} recipient
 */
export const threadKey = (environment, account, recipient) => `${environment}|${account}|${recipient}`;

/** Every conversation, the latest first. @returns {Thread[]} */
function threads() {
  /** @type {Map<string, Thread>} */
  const byKey = new Map();
  let arrival = 0;
  /**
   * @param {Environment} environment
   * @param {string} account
   * @param {string} recipient
   */
  const thread = (environment, account, recipient) => {
    const key = threadKey(environment, account, recipient);
    let found = byKey.get(key);
    if (!found) {
      found = { key, environment, account, recipient, items: [], last: '', arrival: 0 };
      byKey.set(key, found);
    }
    // Messages made in the same virtual instant are told apart by the order they arrived in.
    found.arrival = arrival++;
    return found;
  };
  for (const message of state.messages.values()) {
    for (const leg of message.legs) {
      const entry = thread(message.environment, message.account, leg.recipient);
      entry.items.push({ kind: 'sent', message, leg, at: message.creation_date });
    }
  }
  for (const reply of state.replies.values()) {
    const entry = thread(reply.environment, reply.account, /** @type {string} */ (reply.recipient[0]));
    entry.items.push({ kind: 'reply', message: reply, at: reply.creation_date });
  }
  for (const entry of byKey.values()) {
    entry.items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    entry.last = entry.items.at(-1)?.at ?? '';
  }
  return [...byKey.values()].sort((a, b) => Date.parse(b.last) - Date.parse(a.last) || b.arrival - a.arrival);
}

/** @param {Thread} thread */
function optedOut(thread) {
  return state.accounts.get(thread.account)?.[thread.environment].optOuts.includes(thread.recipient) ?? false;
}

/** @param {Thread} thread */
const lastSent = (thread) =>
  /** @type {Extract<Item, { kind: 'sent' }> | undefined} */ (
    [...thread.items].reverse().find((item) => item.kind === 'sent')
  );

/** @param {{ key: string }} current */
export function renderInbox(current) {
  const filter = field('thread-filter').value.trim().toLowerCase();
  const all = threads();
  const shown = all
    .filter(
      (thread) =>
        !filter ||
        thread.recipient.includes(filter) ||
        thread.items.some((item) => item.message.message.toLowerCase().includes(filter)),
    )
    .slice(0, limits.threads);
  $('threads-empty').hidden = all.length > 0;
  renderList(
    $('thread-list'),
    shown,
    'li',
    (thread) => thread.key,
    (thread) => {
      const last = /** @type {Item} */ (thread.items.at(-1));
      const lastStatus = lastSent(thread);
      const label = `${thread.recipient}${thread.environment === 'sandbox' ? ' · sandbox' : ''}`;
      return [
        thread.key === current.key ? 'current' : '',
        `<a href="#/inbox/${encodeURIComponent(thread.key)}"${thread.key === current.key ? ' aria-current="page"' : ''}>
          <span class="who">${esc(label)}${optedOut(thread) ? ' <span class="tag">⊘ opted out</span>' : ''}</span>
          <span class="when">${clockTime(thread.last)}</span>
          <span class="snippet">${last.kind === 'reply' ? '↩ ' : ''}${esc(last.message.message.slice(0, 80))}</span>
          ${lastStatus ? chip(lastStatus.leg.status) : ''}
        </a>`,
      ];
    },
  );
  const thread = all.find((entry) => entry.key === current.key);
  $('reply-form').hidden = !thread;
  if (!thread) {
    $('thread-title').textContent = all.length ? 'Pick a conversation' : 'No conversations yet';
    $('thread-sub').textContent = '';
    clearList($('bubbles'));
    return;
  }
  $('thread-title').textContent = thread.recipient;
  const account = `${thread.account} · ${thread.environment}`;
  $('thread-sub').innerHTML =
    `${esc(account)}${optedOut(thread) ? ' · <span class="tag">⊘ opted out: later messages end blist</span>' : ''}`;
  const list = $('bubbles');
  // Like a phone: a new message scrolls into view unless the reader has scrolled up to read older ones.
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40 || list.dataset.thread !== thread.key;
  list.dataset.thread = thread.key;
  renderList(
    list,
    thread.items.slice(-limits.bubbles),
    'li',
    (item) => item.message.id,
    (item) =>
      item.kind === 'reply'
        ? [
            'bubble in',
            `<p class="text">${esc(item.message.message)}</p><p class="meta">↩ reply · ${clockTime(item.at)}</p>`,
          ]
        : [
            'bubble out',
            `<p class="text">${markedText(item.message)}</p>
             <p class="meta">${encodingText(item.message)} · ${costText(item.message)} · ${clockTime(item.at)}</p>
             <p class="meta">${chip(item.leg.status)} ${item.leg.history.length > 1 ? `<span class="steps">${item.leg.history.map((change) => esc(change.status)).join(' → ')}</span>` : ''}
             <a href="#/message/${encodeURIComponent(item.message.id)}">Details<span class="visually-hidden"> of message ${esc(item.message.id)}</span></a></p>`,
          ],
  );
  if (atBottom) list.scrollTop = list.scrollHeight;
}

/** Sends `text` as the open conversation's handset, in reply to its latest message. @param {string} text */
async function sendReply(text) {
  const current = route();
  const thread = threads().find((entry) => 'key' in current && entry.key === current.key);
  const sent = thread && lastSent(thread);
  if (!thread || !sent) return;
  const done = await act(`Reply “${text}” from ${thread.recipient}`, () =>
    control('POST', `/messages/${encodeURIComponent(sent.message.id)}/replies`, { from: thread.recipient, text }),
  );
  if (done) field('reply-text').value = '';
}

export function wireInbox() {
  $('thread-filter').addEventListener('input', changed);
  $('reply-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = field('reply-text').value.trim();
    if (text) sendReply(text);
  });
  $('reply-stop').addEventListener('click', () => sendReply('STOP'));
}
