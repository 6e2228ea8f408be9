/** The emulator's own documentation pages, with an anchor per operation and per error code. */

import { Hono } from 'hono';
import { type ErrorDefinition, errorCatalogue } from '../../domain/errors.js';
import { operations } from '../documentation.js';
import { escapeHtml } from '../html.js';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · sms-emulator</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}section{border-top:1px solid #ddd;padding:.5rem 0}</style>
</head><body><nav><a href="./">docs</a> · <a href="messages">operations</a> · <a href="errors">errors</a></nav><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const operationsPage = page(
  'Operations',
  Object.values(operations)
    .map(
      (op) =>
        `<section id="${op.anchor}"><h2>${escapeHtml(op.title)}</h2><p><code>${op.method} ${escapeHtml(op.path)}</code> (sandbox: <code>/sandbox${escapeHtml(op.path)}</code>)</p><p>${escapeHtml(op.summary)}</p></section>`,
    )
    .join(''),
);

const errorsPage = page(
  'Error codes',
  (Object.entries(errorCatalogue) as [string, ErrorDefinition][])
    .map(
      ([code, def]) =>
        `<section id="${code}"><h2>${code}</h2><p>HTTP ${def.status}${def.published ? '' : ' · emulator code, not in the published catalogue'}</p><p><strong>When:</strong> ${escapeHtml(def.description)}</p><p><strong>Fix:</strong> ${escapeHtml(def.fix)}</p></section>`,
    )
    .join(''),
);

const indexPage = page(
  'sms-emulator documentation',
  '<p>Every <code>documentation_url</code> the emulator returns points into these pages.</p><ul><li><a href="messages">Operations</a></li><li><a href="errors">Error codes</a></li></ul>',
);

export function docsRoutes(): Hono {
  const routes = new Hono();
  // c.req.path has the trailing slash stripped (the app is not strict), so the raw URL tells the index from the bare path:
  // the page's relative links need the slash.
  routes.get('/', (c) => (new URL(c.req.url).pathname.endsWith('/') ? c.html(indexPage) : c.redirect(`${c.req.path}/`)));
  routes.get('/messages', (c) => c.html(operationsPage));
  routes.get('/errors', (c) => c.html(errorsPage));
  return routes;
}
