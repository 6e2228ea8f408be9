// @ts-check
// The web inbox's entry: state from the emulator's live stream (Server-Sent Events), drawn at most once per frame.
// Native ES modules with no dependencies, served as they are by the emulator (nothing is fetched from elsewhere):
// store.js holds the state, router.js reads the address, views/ draw the pages, components/ the shared pieces.

import { wireTokenDialog } from './components/tokenDialog.js';
import { pages, route } from './router.js';
import { onChange } from './store.js';
import { connectStream } from './stream.js';
import { renderAccounts, wireAccounts } from './views/accounts.js';
import { renderClock, wireClock } from './views/clock.js';
import { renderInbox, wireInbox } from './views/inbox.js';
import { renderMessagePage, wireMessage } from './views/message.js';
import { renderFailedCount, renderWebhooks, wireWebhooks } from './views/webhooks.js';

function render() {
  renderClock();
  const current = route();
  for (const page of Object.keys(pages))
    /** @type {HTMLElement} */ (document.getElementById(`page-${page}`)).hidden = page !== current.page;
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('nav a'))) {
    if (link.dataset.page === (current.page === 'message' ? 'inbox' : current.page))
      link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  renderFailedCount();
  if (current.page === 'inbox') renderInbox(current);
  else if (current.page === 'message') renderMessagePage(current.id);
  else if (current.page === 'webhooks') renderWebhooks();
  else renderAccounts();
}

onChange(render);
wireClock();
wireInbox();
wireMessage();
wireWebhooks();
wireAccounts();
wireTokenDialog(connectStream);
window.addEventListener('hashchange', () => {
  render();
  // Moving focus to the new page's heading tells keyboard and screen-reader users where they are.
  document.getElementById(pages[route().page])?.focus();
});
render();
connectStream();
