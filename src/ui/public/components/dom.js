// @ts-check
// The helpers every view uses: find an element of the page, and escape text for markup.

/**
 * The page's element with this id (index.html, or markup a view wrote).
 * @param {string} id
 * @returns {HTMLElement}
 */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The form field with this id (an input or a select), for its value.
 * @param {string} id
 */
export const field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/**
 * Text made safe to place inside markup or an attribute.
 * @param {unknown} text
 */
export const esc = (text) => String(text ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
