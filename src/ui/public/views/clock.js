// @ts-check
// The header's virtual clock: the time (ticking locally in realtime mode), its mode, what is due, and the buttons that move it.

import { act, control } from '../control.js';
import { $ } from '../components/dom.js';
import { changed, setClock, state } from '../store.js';

/** The emulator's time now, in ms; in realtime mode it runs on from the last time the stream sent. */
function currentTime() {
  const clock = state.clock;
  if (!clock) return undefined;
  return clock.mode === 'realtime' ? clock.now + (Date.now() - state.clockReceivedAt) * clock.speed : clock.now;
}

export function renderClock() {
  const clock = state.clock;
  const now = currentTime();
  if (!clock || now === undefined) return;
  const shown = new Date(now + state.offsetMinutes * 60_000).toISOString();
  const offset = clock.time.slice(19);
  const element = /** @type {HTMLTimeElement} */ ($('clock-time'));
  element.textContent = `${shown.slice(0, 10)} ${shown.slice(11, 19)} ${offset}`;
  element.dateTime = clock.time;
  const realtime = clock.mode === 'realtime';
  $('clock-mode').className = `chip ${realtime ? 's-submitted' : 's-scheduled'}`;
  $('clock-mode').textContent = realtime ? `▶ realtime ×${clock.speed}` : '■ manual';
  $('clock-tasks').textContent = `${clock.pendingTasks} due later`;
  const pause = $('pause');
  pause.textContent = realtime ? 'Pause' : 'Resume';
  pause.setAttribute('aria-pressed', String(!realtime));
}

/**
 * @param {Record<string, unknown>} command the body of POST /_emulator/clock
 * @param {string} what
 */
async function moveClock(command, what) {
  const clock = await act(what, () => control('POST', '/clock', command));
  if (clock) {
    setClock(clock);
    changed();
  }
}

export function wireClock() {
  for (const button of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-advance]'))) {
    button.addEventListener('click', () =>
      moveClock({ advance: button.dataset.advance }, `Advance the clock ${button.textContent}`),
    );
  }
  $('run-idle').addEventListener('click', () => moveClock({ runUntilIdle: true }, 'Run until idle'));
  $('pause').addEventListener('click', () => {
    const realtime = state.clock?.mode === 'realtime';
    moveClock({ mode: realtime ? 'manual' : 'realtime' }, realtime ? 'Pause the clock' : 'Resume the clock');
  });
  // Only the displayed time moves here; no request is made.
  setInterval(() => state.clock?.mode === 'realtime' && renderClock(), 1000);
}
