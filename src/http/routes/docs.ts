/** The emulator's own documentation pages, with an anchor per operation and per error code, and the reference pages of docs/. */

import { Hono } from 'hono';
import { type ErrorDefinition, errorCatalogue } from '../../domain/errors.js';
import { apiOperations } from '../../domain/apiOperations.js';
import { apiPrefixes } from '../../domain/environment.js';
import { docsFiles } from '../docsFiles.js';
import { escapeHtml } from '../../ui/escapeHtml.js';
import { isRoute, operationList } from '../../control/operationList.js';
import { page } from '../page.js';

const operationsPage = page(
  'Operations',
  Object.values(apiOperations)
    .map(
      (op) =>
        `<section id="${op.anchor}"><h2>${escapeHtml(op.title)}</h2><p><code>${op.method} ${escapeHtml(apiPrefixes.live + op.path)}</code> (sandbox: <code>${escapeHtml(apiPrefixes.sandbox + op.path)}</code>)</p><p>${escapeHtml(op.summary)}</p></section>`,
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
    isRoute(op)
      ? [
          `<li><code>${op.method} /_emulator${escapeHtml(op.path)}</code> (<code>${operationId}</code>): ${escapeHtml(op.summary)}</li>`,
        ]
      : [],
  )
  .join('');

/** The index: the pages every documentation_url points into, the reference pages of docs/, and the control API. */
function indexPage(): string {
  const reference = [...docsFiles().values()]
    .map(
      (file) =>
        `<li><a href="${escapeHtml(file.name)}">${escapeHtml(file.title)}</a> (<code>docs/${escapeHtml(file.name)}</code>)</li>`,
    )
    .join('');
  return page(
    'sms-emulator documentation',
    `<p>Every <code>documentation_url</code> the emulator returns points into these pages.</p><ul><li><a href="messages">API operations</a></li><li><a href="errors">Error codes</a></li><li><a href="/_emulator/openapi.json">OpenAPI 3.1 document</a> (the API and the control API)</li><li><a href="/_emulator">Landing page</a></li></ul><h2>Reference</h2><ul>${reference}</ul><h2>Control API</h2><ul>${controlSection}</ul>`,
  );
}

/**
 * A docs/ page as its Markdown text, escaped (nothing in it can run, and the CSP below forbids scripts anyway), with its
 * links made links: `[text](target)` for a page beside it (`options.md`), an anchor, or an http(s) address; any other
 * target (another scheme) stays text.
 */
export function referencePage(title: string, text: string): string {
  const linked = escapeHtml(text).replace(/\[([^\]\n]+)\]\(([^()\s]+)\)/g, (whole, label: string, target: string) =>
    /^(?:https?:\/\/|#|[\w.-]+\.md(?:#|$))/.test(target) ? `<a href="${target}">${label}</a>` : whole,
  );
  return page(title, `<pre style="white-space:pre-wrap">${linked}</pre>`);
}

// The pages hold only their own inline styles: no script, nothing fetched, not framed by other sites.
const headers = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

export function docsRoutes(): Hono {
  const routes = new Hono();
  let index: string | undefined;
  // c.req.path has the trailing slash stripped (the app is not strict), so the raw URL tells the index from the bare path:
  // the page's relative links need the slash.
  routes.get('/', (c) =>
    new URL(c.req.url).pathname.endsWith('/')
      ? c.html((index ??= indexPage()), 200, headers)
      : c.redirect(`${c.req.path}/`),
  );
  routes.get('/messages', (c) => c.html(operationsPage, 200, headers));
  routes.get('/errors', (c) => c.html(errorsPage, 200, headers));
  // The name is looked up among the files docs/ holds, never joined to a path: nothing else can be read.
  routes.get('/:name', (c, next) => {
    const file = docsFiles().get(c.req.param('name'));
    return file ? c.html(referencePage(file.title, file.text), 200, headers) : next();
  });
  return routes;
}
