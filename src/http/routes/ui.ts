/** The web inbox under /_emulator/ui (page, script, styles, live stream) and the timeline report at /_emulator/report. */

import { Hono } from 'hono';
import { z } from 'zod';
import { parseControl } from '../../engine/controlInput.js';
import { uiAsset, uiAssetNames } from '../../ui/assets.js';
import type { LiveFeed } from '../../ui/liveFeed.js';
import { reportPage } from '../../ui/reportPage.js';
import type { TimelineReport } from '../../ui/timelineReport.js';
import { requireControlToken } from '../middleware/controlToken.js';
import { methodNotAllowed } from '../middleware/methods.js';

export interface UiRouteDeps {
  feed: LiveFeed;
  controlToken: string | undefined;
}

/** The page and its files need no token (they hold no data); the page asks for the token and sends it on every call. */
export function uiRoutes({ feed, controlToken }: UiRouteDeps): Hono {
  const routes = new Hono({ strict: false });
  const serve = (name: string) => () => {
    const asset = uiAsset(name) as NonNullable<ReturnType<typeof uiAsset>>;
    return new Response(asset.body, { headers: { 'content-type': asset.contentType, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' } });
  };
  // The page at the folder's address; its modules and styles each at their path in the folder.
  const files = new Map([['/', 'index.html'], ...[...uiAssetNames()].filter((name) => name !== 'index.html').map((name) => [`/${name}`, name] as const)]);
  for (const [path, name] of files) routes.get(path, serve(name));
  // EventSource cannot send an Authorization header, so the stream also takes the token as ?token=.
  routes.get('/events', requireControlToken(controlToken, 'token'), (c) => feed.open(c.req.raw.signal));
  for (const path of [...files.keys(), '/events']) routes.all(path, methodNotAllowed(['GET']));
  return routes;
}

const reportQuery = z.strictObject({
  account: z.string().min(1).optional(),
  format: z.enum(['html', 'json']).default('html'),
});

export interface ReportRouteDeps {
  report(account?: string): TimelineReport;
  controlToken: string | undefined;
}

export function reportRoutes({ report, controlToken }: ReportRouteDeps): Hono {
  const routes = new Hono({ strict: false });
  routes.use('*', requireControlToken(controlToken));
  routes.get('/', (c) => {
    const query = parseControl(reportQuery, c.req.query(), 'report query');
    const data = report(query.account);
    return query.format === 'json' ? c.json(data) : c.html(reportPage(data));
  });
  routes.all('/', methodNotAllowed(['GET']));
  return routes;
}
