// @ts-check
// The line under the header that says what a button did, or what went wrong.

import { $ } from './dom.js';

/**
 * @param {string} text
 * @param {boolean} [problem]
 */
export function notify(text, problem = false) {
  const notice = $('notice');
  notice.hidden = false;
  notice.classList.toggle('problem', problem);
  notice.textContent = problem ? `⚠ ${text}` : `✓ ${text}`;
}
