/** The web inbox under /_emulator/ui (page, script, styles, live stream) and the timeline report at /_emulator/report. */

import { Hono } from 'hono';
import { z } from 'zod';
import { parseControl } from '../../control/parseControl.js';
import { uiAsset, uiAssetNames } from '../../ui/assets.js';
import type { LiveFeed } from '../../ui/liveFeed.js';
import { reportPage, reportPolicy, reportStyleSource } from '../../ui/reportPage.js';
import { type TimelineReport, reportFormats } from '../../ui/timelineReport.js';
import { requireControlToken } from '../middleware/controlToken.js';
import { methodNotAllowed } from '../middleware/methods.js';
import { requireSameOrigin } from '../middleware/sameOrigin.js';

/** No page of another origin may frame these pages (a click in a frame would act in the emulator): both headers, for old browsers too. */
const noFraming = (policy: string): Record<string, string> => ({
  'content-security-policy': `${policy}; frame-ancestors 'none'`,
  'x-frame-options': 'DENY',
});

/** The inbox's policy; its style-src also admits the report's style, since a report the inbox opens inherits this policy. */
const inboxPolicy = (): string =>
  `default-src 'none'; script-src 'self'; style-src 'self' ${reportStyleSource()}; connect-src 'self'; img-src 'self' data:`;

export interface UiRouteDeps {
  feed: LiveFeed;
  controlToken: string | undefined;
  /** The publicUrl option's origin, which the Origin check counts as the emulator's own. */
  publicOrigin: string | undefined;
}

/** The page and its files need no token (they hold no data); the page asks for the token and sends it on every call. */
export function uiRoutes({ feed, controlToken, publicOrigin }: UiRouteDeps): Hono {
  const routes = new Hono({ strict: false });
  let headers: Record<string, string> | undefined;
  const serve = (name: string) => () => {
    const asset = uiAsset(name) as NonNullable<ReturnType<typeof uiAsset>>;
    headers ??= { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...noFraming(inboxPolicy()) };
    return new Response(asset.body, { headers: { 'content-type': asset.contentType, ...headers } });
  };
  // The page at the folder's address; its modules and styles each at their path in the folder.
  const files = new Map([
    ['/', 'index.html'],
    ...[...uiAssetNames()].filter((name) => name !== 'index.html').map((name) => [`/${name}`, name] as const),
  ]);
  for (const [path, name] of files) routes.get(path, serve(name));
  // EventSource cannot send an Authorization header, so the stream also takes the token as ?token=.
  routes.get('/events', requireSameOrigin(publicOrigin), requireControlToken(controlToken, 'token'), (c) =>
    feed.open(c.req.raw.signal),
  );
  for (const path of [...files.keys(), '/events']) routes.all(path, methodNotAllowed(['GET']));
  return routes;
}

const reportQuery = z.strictObject({
  account: z.string().min(1).optional(),
  format: z.enum(reportFormats).default('html'),
});

export interface ReportRouteDeps {
  report(account?: string): TimelineReport;
  controlToken: string | undefined;
  /** The publicUrl option's origin, which the Origin check counts as the emulator's own. */
  publicOrigin: string | undefined;
}

export function reportRoutes({ report, controlToken, publicOrigin }: ReportRouteDeps): Hono {
  const routes = new Hono({ strict: false });
  routes.use('*', requireSameOrigin(publicOrigin), requireControlToken(controlToken));
  routes.get('/', (c) => {
    const query = parseControl(reportQuery, c.req.query(), 'report query');
    const data = report(query.account);
    return query.format === 'json'
      ? c.json(data, 200, noFraming(reportPolicy))
      : c.html(reportPage(data), 200, noFraming(reportPolicy));
  });
  routes.all('/', methodNotAllowed(['GET']));
  return routes;
}
