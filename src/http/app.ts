/** createApp: the whole route table in one place, one error handler, no sockets. */

import { Hono } from 'hono';
import { apiPrefixes, environmentPaths } from '../domain/environment.js';
import type { OperationDeps } from '../control/operation.js';
import type { Core } from '../engine/core.js';
import type { ApiHandler } from './apiHandler.js';
import { bodyLimit, snapshotTooLarge } from './body.js';
import { TransportFailure } from './networkAnswer.js';
import { honoApi } from './adapters/honoApi.js';
import { journalRequests } from './middleware/journal.js';
import { answerableError, errorResponse, responseSettings, routeNotFound } from './respond.js';
import { controlRoutes } from './routes/control.js';
import { mcpRoutes } from './routes/mcp.js';
import { runOperation } from '../control/runOperation.js';
import { parseDuration } from '../domain/time.js';
import { docsFiles } from './docsFiles.js';
import { docsRoutes } from './routes/docs.js';
import { landingRoutes } from './routes/landing.js';
import { reportRoutes, uiRoutes } from './routes/ui.js';
import type { LiveFeed } from '../ui/liveFeed.js';
import type { TimelineReport } from '../ui/timelineReport.js';

export interface AppDeps {
  core: Core;
  /** What the control operations reach (the engine's services, the scenario, the request journal, the wait for a message). */
  operations: OperationDeps;
  /** The /v1 and /sandbox/v1 API (the node listener's fast lane serves the same handler). */
  api: ApiHandler;
  /** The web inbox's live stream. */
  feed: LiveFeed;
  /** One account's timeline report (the default account when none is named). */
  report(account?: string): TimelineReport;
  /** The emulator's own origin (where it listens, or publicUrl's), for the addresses an MCP world shows. */
  origin(): string;
}

export function createApp({ core, operations, api, feed, report, origin }: AppDeps): Hono {
  const { options } = core;
  const settings = responseSettings(options);
  const app = new Hono({ strict: false });
  // First, so the API's own handler (journal, body limit and errors included) answers these paths alone.
  const serveApi = honoApi(api, core.wallTimers);
  for (const prefix of Object.values(apiPrefixes)) app.all(`${prefix}/*`, serveApi);
  // The journal goes first so it also records a request the body limit refuses by its Content-Length alone.
  app.use('*', journalRequests(operations.journal, core.clock, core.store));
  app.use(
    '*',
    bodyLimit(options.maxBodySize, {
      '/_emulator/snapshot': { maxBytes: options.maxSnapshotSize, refuse: snapshotTooLarge },
    }),
  );
  app.route('/_emulator/docs', docsRoutes());
  app.route('/_emulator', landingRoutes({ ui: options.ui, batchLimit: options.batchLimit }));
  // Mounted before the control routes, whose token check would otherwise guard the page's own files.
  // The live and sandbox base addresses the banner prints lead a person opening them to the emulator's own pages.
  const home = options.ui ? '/_emulator/ui' : '/_emulator';
  app.get('/', (c) => c.redirect(home));
  app.get(environmentPaths.sandbox, (c) => c.redirect(home));
  if (options.ui)
    app.route(
      '/_emulator/ui',
      uiRoutes({ feed, controlToken: options.controlToken, publicOrigin: settings.publicOrigin }),
    );
  // The report reads the whole state: while an import puts one in place it is refused, as the control API is.
  const reportWhole = (account?: string) => {
    core.imports.refuseWhileRunning();
    return report(account);
  };
  app.route(
    '/_emulator/report',
    reportRoutes({ report: reportWhole, controlToken: options.controlToken, publicOrigin: settings.publicOrigin }),
  );
  app.route(
    '/_emulator/mcp',
    mcpRoutes({
      backend: {
        call: async (op, args) => {
          core.imports.refuseWhileRunning();
          return runOperation(op, operations, args);
        },
        api: async (path, init) => app.fetch(new Request(`${origin()}${path}`, init)),
        origin,
        report: async (account) => reportWhole(account),
        docs: docsFiles,
      },
      controlToken: options.controlToken,
      publicOrigin: settings.publicOrigin,
      sessionLimit: options.mcpSessionLimit,
      idleMs: parseDuration(options.mcpIdleLimit) ?? 0,
      // A closed emulator runs its timers at once: an idle sweep then has nothing left to end.
      after: (ms, run) => core.wallTimers.after(ms, () => void (core.wallTimers.closed || run())),
    }),
  );
  app.route(
    '/_emulator',
    controlRoutes({ ...operations, controlToken: options.controlToken, publicOrigin: settings.publicOrigin }),
  );

  app.notFound((c) => errorResponse(c, routeNotFound(c.req.method, c.req.path), settings));
  app.onError((error, c) => {
    // A network fault without a socket (emulator.fetch): the call fails as fetch would, with no answer.
    if (error instanceof TransportFailure) throw error;
    return errorResponse(c, answerableError(error, c.req.method, c.req.path), settings);
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
