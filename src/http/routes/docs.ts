/** The emulator's own documentation pages, with an anchor per operation and per error code. */

import { Hono } from 'hono';
import { type ErrorDefinition, errorCatalogue } from '../../domain/errors.js';
import { operations } from '../documentation.js';
import { escapeHtml } from '../html.js';
import { isRoute, operationList } from '../../control/operations.js';
import { page } from '../page.js';

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

const controlSection = operationList()
  .flatMap(([operationId, op]) =>
    isRoute(op) ? [`<li><code>${op.method} /_emulator${escapeHtml(op.path)}</code> (<code>${operationId}</code>): ${escapeHtml(op.summary)}</li>`] : [],
  )
  .join('');

const indexPage = page(
  'sms-emulator documentation',
  `<p>Every <code>documentation_url</code> the emulator returns points into these pages.</p><ul><li><a href="messages">API operations</a></li><li><a href="errors">Error codes</a></li><li><a href="/_emulator/openapi.json">OpenAPI 3.1 document</a> (the API and the control API)</li><li><a href="/_emulator">Landing page</a></li></ul><h2>Control API</h2><ul>${controlSection}</ul>`,
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
