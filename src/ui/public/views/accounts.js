// @ts-check
// The accounts page: each account's key, scopes, its clock (a test clock's time and the buttons that move it), and per
// environment its balance, webhook URL, messages and opt-outs.

import { act, authorization, control } from '../control.js';
import { $, esc } from '../components/dom.js';
import { notify } from '../components/notice.js';
import { renderList } from '../components/renderList.js';
import { state } from '../store.js';

export function renderAccounts() {
  renderList(
    $('account-cards'),
    [...state.accounts.values()],
    'article',
    (account) => account.apiKey,
    (account) => [
      'card',
      `<h3><code>${esc(account.apiKey)}</code></h3>
       <p class="muted">scopes: ${esc(account.scopes.join(', ') || 'all')}</p>
       ${clockSection(account)}
       ${state.lists.environments
         .map((environment) => {
           const wallet = account[environment];
           return `<section><h4>${environment}</h4><dl class="facts">
             <dt>Balance</dt><dd><strong>${wallet.balance}</strong> credits</dd>
             <dt>Webhook URL</dt><dd class="url">${esc(wallet.webhookUrl ?? 'none')}</dd>
             <dt>Messages</dt><dd>${wallet.messages}</dd>
             <dt>Opted out</dt><dd>${wallet.optOuts.length ? wallet.optOuts.map((number) => `<span class="tag">⊘ ${esc(number)}</span>`).join(' ') : '<span class="muted">nobody</span>'}</dd>
           </dl></section>`;
         })
         .join('')}
       <p><button type="button" data-report="${esc(account.apiKey)}">Timeline report</button> <button type="button" data-report="${esc(account.apiKey)}" data-format="json">Report as JSON</button></p>`,
    ],
  );
}

/** How far a test clock's buttons move it: the command's duration and the button's text. */
const moves = [
  ['1m', '1 min'],
  ['1h', '1 h'],
  ['1d', '1 day'],
];

/**
 * The account's clock: the main one (the header's), or its test clock with its time, what is due and buttons that move it
 * (and only it: other accounts' messages stay where they are).
 * @param {import('../types.js').AccountView} account
 */
function clockSection(account) {
  if (account.clock === null) return '<p class="muted">clock: the main clock (above)</p>';
  const clock = state.clocks.get(account.clock);
  if (!clock) return '';
  const id = esc(clock.id);
  const time = `${clock.time.slice(0, 10)} ${clock.time.slice(11, 19)} ${clock.time.slice(19)}`;
  const buttons = moves.map(
    ([by, label]) =>
      `<button type="button" data-clock="${id}" data-advance-by="${by}" aria-label="Advance ${id} by ${label}">+${label}</button>`,
  );
  return `<section><h4>Test clock</h4><dl class="facts">
     <dt>Clock</dt><dd><code>${id}</code>${clock.name ? ` ${esc(clock.name)}` : ''}</dd>
     <dt>Time</dt><dd><time datetime="${esc(clock.time)}">${esc(time)}</time></dd>
     <dt>Due</dt><dd>${clock.pendingTasks} later</dd>
   </dl><p>${buttons.join(' ')} <button type="button" data-clock="${id}" aria-label="Run ${id} until idle">Run until idle</button></p></section>`;
}

/**
 * Opens an account's timeline report in a new tab (fetched with the token, which a plain link could not send).
 * @param {string} account
 * @param {string} format
 */
async function openReport(account, format) {
  const response = await fetch(`/_emulator/report?account=${encodeURIComponent(account)}&format=${format}`, {
    headers: authorization(),
  });
  if (!response.ok) return notify(`The timeline report failed: HTTP ${response.status}`, true);
  const url = URL.createObjectURL(await response.blob());
  window.open(url, '_blank', 'noopener');
}

export function wireAccounts() {
  document.addEventListener('click', (event) => {
    const report = /** @type {HTMLElement | null} */ (
      /** @type {HTMLElement} */ (event.target).closest('[data-report]')
    );
    const account = report?.dataset.report;
    if (report && account !== undefined) openReport(account, report.dataset.format ?? 'html');
    const move = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('[data-clock]'));
    const clock = move?.dataset.clock;
    if (move && clock !== undefined) {
      const by = move.dataset.advanceBy;
      const command = by === undefined ? { runUntilIdle: true } : { advance: by };
      // The stream sends the moved clock and what it fired; the answer needs no drawing of its own.
      act(by === undefined ? `Run ${clock} until idle` : `Advance ${clock} by ${by}`, () =>
        control('POST', `/clocks/${encodeURIComponent(clock)}`, command),
      );
    }
  });
}
