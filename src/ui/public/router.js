// @ts-check
// The page's address: `#/inbox/<thread>`, `#/message/<id>`, `#/webhooks`, `#/accounts`.

/** @typedef {{ page: 'inbox' | 'webhooks' | 'accounts', key: string } | { page: 'message', id: string }} Route */

/** The pages, each with the heading that takes focus when it opens. */
export const pages = /** @type {const} */ ({
  inbox: 'thread-title',
  message: 'message-title',
  webhooks: 'webhooks-title',
  accounts: 'accounts-title',
});

/** @returns {Route} */
export function route() {
  const [page = 'inbox', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  const value = decodeURIComponent(rest.join('/'));
  if (page === 'message') return { page, id: value };
  return { page: page === 'webhooks' || page === 'accounts' ? page : 'inbox', key: value };
}
