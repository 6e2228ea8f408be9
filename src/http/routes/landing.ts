/** The landing page at /_emulator (every address a user can open, and the control operations) and the OpenAPI document beside it. */

import { Hono } from 'hono';
import { isRoute, operationList } from '../../control/operationList.js';
import { escapeHtml } from '../../ui/escapeHtml.js';
import { page } from '../page.js';
import { batchLimitNote } from '../../options.js';

export function landingRoutes({ ui, batchLimit }: { ui: boolean; batchLimit: number }): Hono {
  const links = [
    ['/_emulator/docs/', 'Documentation: API operations, error codes, control API'],
    ['/_emulator/openapi.json', 'OpenAPI 3.1 document of the API and the control API'],
    ['/_emulator/health', 'Health check (200 once ready)'],
    ...(ui ? [['/_emulator/ui', 'Web inbox']] : []),
    ['/_emulator/report', 'Timeline report of the default account'],
  ];
  const control = operationList()
    .flatMap(([operationId, op]) => {
      if (!isRoute(op)) return [];
      const address = `/_emulator${op.path}`;
      const shown =
        op.method === 'GET' && !op.path.includes('{')
          ? `<a href="${escapeHtml(address)}">${escapeHtml(address)}</a>`
          : escapeHtml(address);
      return [`<li><code>${op.method}</code> ${shown} (<code>${operationId}</code>)</li>`];
    })
    .join('');
  const html = page(
    'sms-emulator',
    `<p>An in-memory emulator of the SMS messaging REST API. The API is at <code>/v1</code>, the sandbox at <code>/sandbox/v1</code>.</p><ul>${links
      .map(([href, text]) => `<li><a href="${href}">${escapeHtml(text as string)}</a></li>`)
      .join(
        '',
      )}</ul><h2>Limits</h2><p>Batch limit: ${escapeHtml(batchLimitNote(batchLimit))}.</p><h2>Control API</h2><ul>${control}</ul>`,
  );
  // Built on its first request, from a module loaded then: the document and zod's JSON Schema writer are not start-up work.
  let document: Promise<string> | undefined;
  const openApiJson = (): Promise<string> =>
    (document ??= import('../../control/openapi.js').then(({ openApiDocument }) => JSON.stringify(openApiDocument())));
  const routes = new Hono();
  routes.get('/', (c) => c.html(html));
  routes.get('/openapi.json', async (c) => c.body(await openApiJson(), 200, { 'Content-Type': 'application/json' }));
  return routes;
}
