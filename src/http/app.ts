/** createApp: the whole route table in one place, one error handler, no sockets. */

import { Hono } from 'hono';
import { ApiError } from '../domain/errors.js';
import type { Environment } from '../domain/message.js';
import type { OperationDeps } from '../control/operations.js';
import type { Core } from '../engine/core.js';
import type { ApiEnv } from './context.js';
import type { Faults } from '../engine/scenario/faults.js';
import { bodyLimit } from './body.js';
import { authenticate } from './middleware/auth.js';
import { journalRequests } from './middleware/journal.js';
import { faultGuard } from './middleware/faults.js';
import { requireHttps } from './middleware/transport.js';
import { errorResponse, responseSettings } from './respond.js';
import { balanceRoutes } from './routes/balance.js';
import { controlRoutes } from './routes/control.js';
import { docsRoutes } from './routes/docs.js';
import { landingRoutes } from './routes/landing.js';
import { messagesRoutes } from './routes/messages.js';
import { reportRoutes, uiRoutes } from './routes/ui.js';
import type { LiveFeed } from '../ui/liveFeed.js';
import type { TimelineReport } from '../ui/timelineReport.js';

export interface AppDeps {
  core: Core;
  /** What the control operations reach (the engine's control, the request journal, the webhook wait). */
  operations: OperationDeps;
  faults: Faults;
  /** The web inbox's live stream. */
  feed: LiveFeed;
  /** One account's timeline report (the default account when none is named). */
  report(account?: string): TimelineReport;
}

export function createApp({ core, operations, faults, feed, report }: AppDeps): Hono {
  const { options } = core;
  const settings = responseSettings(options);
  const auth = authenticate(core.store);

  const api = (environment: Environment): Hono<ApiEnv> => {
    const routes = new Hono<ApiEnv>({ strict: false });
    if (options.requireHttps) routes.use('*', requireHttps());
    const fault = faultGuard(faults, core.clock, core.events, environment);
    routes.route('/messages/balance', balanceRoutes(environment, auth, fault, settings));
    routes.route(
      '/messages',
      messagesRoutes(environment, {
        messaging: core.messaging,
        auth,
        fault,
        outcomeHeader: options.outcomeHeader,
        settings,
        requireSignatureOnPatch: options.requireSignatureOnPatch,
        noMessagesStatus: options.noMessagesStatus,
      }),
    );
    return routes;
  };

  const app = new Hono({ strict: false });
  // The journal goes first so it also records a request the body limit refuses by its Content-Length alone.
  app.use('*', journalRequests(operations.journal, core.clock));
  app.use('*', bodyLimit(options.maxBodySize));
  app.route('/v1', api('live'));
  app.route('/sandbox/v1', api('sandbox'));
  app.route('/_emulator/docs', docsRoutes());
  app.route('/_emulator', landingRoutes({ ui: options.ui }));
  // Mounted before the control routes, whose token check would otherwise guard the page's own files.
  if (options.ui) {
    app.get('/', (c) => c.redirect('/_emulator/ui'));
    app.route('/_emulator/ui', uiRoutes({ feed, controlToken: options.controlToken }));
  } else app.get('/', (c) => c.redirect('/_emulator'));
  app.route('/_emulator/report', reportRoutes({ report, controlToken: options.controlToken }));
  app.route('/_emulator', controlRoutes({ ...operations, controlToken: options.controlToken }));

  app.notFound((c) => errorResponse(c, new ApiError('ROUTE_NOT_FOUND', `No endpoint at ${c.req.method} ${c.req.path}.`), settings));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error, settings);
    console.error('sms-emulator: unexpected error while handling', c.req.method, c.req.path, error);
    return errorResponse(c, new ApiError('INTERNAL_SERVER_ERROR'), settings);
  });
  // hono's router looks methods up as keys of plain objects, so a method named like an Object.prototype
  // member ("toString", "__proto__") throws inside it. Node's parser never passes such a method, but
  // emulator.fetch can; it is served as the unknown method it is.
  const dispatch = app.fetch;
  app.fetch = (request, ...rest) =>
    dispatch(
      Object.prototype.hasOwnProperty.call(Object.prototype, request.method)
        ? new Request(request, { method: 'UNKNOWN', duplex: 'half' } as RequestInit)
        : request,
      ...rest,
    );
  return app;
}
