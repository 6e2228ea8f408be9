// @ts-check
// The live stream (Server-Sent Events): the state first, then coalesced updates, reconnecting when it drops.

import { $ } from './components/dom.js';
import { notify } from './components/notice.js';
import { session } from './components/tokenDialog.js';
import { control } from './control.js';
import { applyUpdate, replaceState } from './store.js';

/** @type {EventSource | undefined} */
let stream;

export async function connectStream() {
  try {
    await control('GET', '/clock');
  } catch (error) {
    const failure = /** @type {import('./control.js').ControlFailure} */ (error);
    if (failure.status !== 401) notify(`Cannot reach the emulator: ${failure.message}`, true);
    return;
  }
  stream?.close();
  const opened = new EventSource(
    `/_emulator/ui/events${session.token ? `?token=${encodeURIComponent(session.token)}` : ''}`,
  );
  stream = opened;
  opened.addEventListener('state', (event) => {
    replaceState(JSON.parse(event.data));
    setLive(true);
  });
  opened.addEventListener('update', (event) => applyUpdate(JSON.parse(event.data)));
  opened.addEventListener('open', () => setLive(true));
  opened.addEventListener('error', () => {
    setLive(false);
    // A refused stream (429: too many open) is closed for good by the browser, so the page asks again later.
    if (opened.readyState === EventSource.CLOSED) setTimeout(connectStream, 5000);
  });
}

/** @param {boolean} live */
function setLive(live) {
  const badge = $('live');
  badge.textContent = live ? '● live' : '○ reconnecting';
  badge.classList.toggle('off', !live);
}
