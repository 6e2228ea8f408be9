// @ts-check
// Draws a list keyed by item, rewriting only the elements whose markup changed, so focus and scroll survive live updates.

/** @typedef {{ element: HTMLElement, html: string | undefined }} Drawn */

/** The elements drawn into each list container, by key. */
/** @type {WeakMap<HTMLElement, Map<string, Drawn>>} */
const drawn = new WeakMap();

/**
 * @template T
 * @param {HTMLElement} container
 * @param {T[]} items
 * @param {string} tag the element each item is drawn as
 * @param {(item: T) => string} keyOf
 * @param {(item: T) => [className: string, html: string]} viewOf
 */
export function renderList(container, items, tag, keyOf, viewOf) {
  let cache = drawn.get(container);
  if (!cache) drawn.set(container, (cache = new Map()));
  const seen = new Set();
  /** @type {HTMLElement | null} */
  let previous = null;
  for (const item of items) {
    const key = keyOf(item);
    const [className, html] = viewOf(item);
    seen.add(key);
    let entry = cache.get(key);
    if (!entry) {
      entry = { element: document.createElement(tag), html: undefined };
      cache.set(key, entry);
    }
    if (entry.html !== html) {
      entry.element.innerHTML = html;
      entry.html = html;
    }
    entry.element.className = className;
    /** @type {ChildNode | null} */
    const expected = previous ? previous.nextSibling : container.firstChild;
    if (entry.element !== expected) container.insertBefore(entry.element, expected);
    previous = entry.element;
  }
  for (const [key, entry] of cache) {
    if (seen.has(key)) continue;
    entry.element.remove();
    cache.delete(key);
  }
}

/** @param {HTMLElement} container empties a list drawn by renderList */
export function clearList(container) {
  renderList(container, [], 'li', String, () => ['', '']);
}
