// @ts-check
// The accounts page: each account's key, scopes, and per environment its balance, webhook URL, messages and opt-outs.

import { authorization } from '../control.js';
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

/**
 * Opens an account's timeline report in a new tab (fetched with the token, which a plain link could not send).
 * @param {string} account
 * @param {string} format
 */
async function openReport(account, format) {
  const response = await fetch(`/_emulator/report?account=${encodeURIComponent(account)}&format=${format}`, { headers: authorization() });
  if (!response.ok) return notify(`The timeline report failed: HTTP ${response.status}`, true);
  const url = URL.createObjectURL(await response.blob());
  window.open(url, '_blank', 'noopener');
}

export function wireAccounts() {
  document.addEventListener('click', (event) => {
    const report = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('[data-report]'));
    const account = report?.dataset.report;
    if (report && account !== undefined) openReport(account, report.dataset.format ?? 'html');
  });
}
