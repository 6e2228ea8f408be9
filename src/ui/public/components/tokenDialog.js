// @ts-check
// The dialog that asks for the control token when the emulator has one (the token stays in this tab only).

import { $, field } from './dom.js';

const tokenKey = 'sms-emulator-control-token';

/** The token the page sends, or '' for an emulator without one. */
export const session = { token: sessionStorage.getItem(tokenKey) ?? '' };

/** @param {string} [message] why it is asked again */
export function askForToken(message) {
  const dialog = /** @type {HTMLDialogElement} */ ($('token-dialog'));
  $('token-error').textContent = message ?? '';
  if (!dialog.open) dialog.showModal();
  $('token-input').focus();
}

/** @param {() => void} connect called with the token entered */
export function wireTokenDialog(connect) {
  $('token-form').addEventListener('submit', () => {
    session.token = field('token-input').value;
    sessionStorage.setItem(tokenKey, session.token);
    connect();
  });
}
