// @ts-check
// Talking to the emulator's control API (/_emulator/...) with the page's token, and saying what a button's call did.

import { notify } from './components/notice.js';
import { askForToken, session } from './components/tokenDialog.js';

/** The control API refused a call: its catalogued description, HTTP status and code. */
export class ControlFailure extends Error {
  /**
   * @param {number} status
   * @param {{ description?: string, message?: string } | undefined} body
   */
  constructor(status, body) {
    super(body?.description ?? `the emulator answered HTTP ${status}`);
    this.status = status;
    this.code = body?.message;
  }
}

/** @returns {Record<string, string>} */
export function authorization() {
  return session.token ? { authorization: `Bearer ${session.token}` } : {};
}

/**
 * @param {string} method
 * @param {string} path below /_emulator
 * @param {unknown} [body]
 * @returns {Promise<any>} the JSON answered, as the control API documents it for this path
 */
export async function control(method, path, body) {
  const headers = authorization();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/_emulator${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (response.status === 401) askForToken('The token was refused; enter it again.');
  if (!response.ok) throw new ControlFailure(response.status, data);
  return data;
}

/**
 * Runs a control call for a button and says what happened; an endpoint this emulator lacks is named as such.
 * @template T
 * @param {string} what
 * @param {() => Promise<T>} call
 * @returns {Promise<T | undefined>}
 */
export async function act(what, call) {
  try {
    const result = await call();
    notify(`${what}: done.`);
    return result;
  } catch (error) {
    const failure = /** @type {ControlFailure} */ (error);
    if (failure.status === 404 && failure.code === 'ROUTE_NOT_FOUND')
      notify(`${what} is not available in this emulator version (it answered 404).`, true);
    else notify(`${what} failed: ${failure.message}`, true);
    return undefined;
  }
}
