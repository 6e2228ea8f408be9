// @ts-check
// The page's state: what the live stream sent, kept in bounded maps, and the one place that asks for a redraw.

/** @typedef {import('./types.js').FeedState} FeedState */
/** @typedef {import('./types.js').FeedUpdate} FeedUpdate */
/** @typedef {import('./types.js').ClockView} ClockView */

/** How many records the page keeps and draws: a busy emulator must not make the page slow. */
export const limits = { messages: 2000, replies: 2000, webhooks: 1000, threads: 200, bubbles: 200, rows: 200 };

export const state = {
  /** @type {ClockView | undefined} */
  clock: undefined,
  clockReceivedAt: 0,
  offsetMinutes: 0,
  /** The emulator's shared lists (environments, final statuses), as the stream's first frame named them. */
  /** @type {FeedState['lists']} */
  lists: { environments: [], finalStatuses: [] },
  /** @type {Map<string, import('./types.js').AccountView>} */
  accounts: new Map(),
  /** @type {Map<string, import('./types.js').MessageView>} */
  messages: new Map(),
  /** @type {Map<string, import('./types.js').MessageView>} */
  replies: new Map(),
  /** @type {Map<string, import('./types.js').WebhookEvent>} */
  webhooks: new Map(),
  /** Journal lookups by message id; undefined while one is under way. */
  /** @type {Map<string, import('./types.js').JournalLookup | undefined>} */
  journal: new Map(),
};

/**
 * Adds or replaces one record, dropping the oldest past `limit`.
 * @template T
 * @param {Map<string, T>} map
 * @param {string} key
 * @param {T} value
 * @param {number} limit
 */
export function keep(map, key, value, limit) {
  map.set(key, value);
  if (map.size > limit) map.delete(/** @type {string} */ (map.keys().next().value));
}

/** @param {import('./types.js').MessageView} message */
export const keepMessage = (message) => keep(state.messages, message.id, message, limits.messages);

/** @param {ClockView} clock */
export function setClock(clock) {
  state.clock = clock;
  state.clockReceivedAt = Date.now();
}

/** @param {import('./types.js').AccountView[]} accounts */
function setAccounts(accounts) {
  state.accounts.clear();
  for (const account of accounts) state.accounts.set(account.apiKey, account);
}

/** @param {FeedState} snapshot */
export function replaceState(snapshot) {
  setClock(snapshot.clock);
  state.offsetMinutes = snapshot.offsetMinutes;
  state.lists = snapshot.lists;
  state.messages.clear();
  state.replies.clear();
  state.webhooks.clear();
  setAccounts(snapshot.accounts);
  // Lists arrive newest first; inserting oldest first keeps the maps in age order for trimming.
  for (const message of [...snapshot.messages].reverse()) keepMessage(message);
  for (const reply of [...snapshot.replies].reverse()) keep(state.replies, reply.id, reply, limits.replies);
  for (const event of snapshot.webhooks) keep(state.webhooks, event.id, event, limits.webhooks);
  changed();
}

/** @param {FeedUpdate} update */
export function applyUpdate(update) {
  setClock(update.clock);
  setAccounts(update.accounts);
  for (const message of update.messages) keepMessage(message);
  for (const reply of update.replies) keep(state.replies, reply.id, reply, limits.replies);
  for (const event of update.webhooks) keep(state.webhooks, event.id, event, limits.webhooks);
  changed();
}

/** @type {() => void} */
let draw = () => undefined;
let drawQueued = false;

/** @param {() => void} render what `changed` draws (the entry's page renderer) */
export function onChange(render) {
  draw = render;
}

/** However many changes arrive, the page is drawn at most once per frame. */
export function changed() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    draw();
  });
}
