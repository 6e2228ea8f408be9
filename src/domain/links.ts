/** Hypermedia links of messages and lists, absolute and built from the address a request came in on. */

import type { MessageStatus } from './message.js';

export interface Link {
  href: string;
  method: 'GET' | 'PATCH' | 'DELETE';
}

/** `apiBase` is the origin plus the environment's prefix, e.g. `http://localhost:2727/sandbox/v1`. */
export function messageLinks(apiBase: string, id: string, status: MessageStatus): Record<string, Link> {
  const href = `${apiBase}/messages/${encodeURIComponent(id)}`;
  const self: Link = { href, method: 'GET' };
  if (status !== 'scheduled') return { self };
  return { self, edit: { href, method: 'PATCH' }, delete: { href, method: 'DELETE' } };
}

/** `self`, `next` (when there is a next page) and `last`, each keeping the other query parameters. */
export function listLinks(
  apiBase: string,
  query: Readonly<Record<string, string | undefined>>,
  page: number,
  totalPages: number,
): Record<string, Link> {
  const pageHref = (target: number): string => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && name !== 'page') params.set(name, value);
    params.set('page', String(target));
    return `${apiBase}/messages?${params.toString()}`;
  };
  const links: Record<string, Link> = { self: { href: pageHref(page), method: 'GET' } };
  if (page < totalPages) links.next = { href: pageHref(page + 1), method: 'GET' };
  links.last = { href: pageHref(Math.max(1, totalPages)), method: 'GET' };
  return links;
}
