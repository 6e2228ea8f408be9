/**
 * Records every request hono answers outside the API (an unknown address, a refused body) in the request journal:
 * references on the way, rendering only when someone reads it. The API's own requests are journaled by its handler.
 */

import type { MiddlewareHandler } from 'hono';
import { apiEnvironment, defaultEnvironment } from '../../domain/environment.js';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { RequestJournal } from '../../journal/requestJournal.js';
import type { Clock } from '../../state/clock.js';
import type { Store } from '../../state/store.js';
import { journalBody } from '../body.js';
import { PendingRecord, journalKeepsBody } from '../journalRecord.js';
import { basicUsername } from '../checks/basicUsername.js';

/** Requests to these are not API requests: the control API, its pages, and the landing redirect. */
const notJournaled = (path: string): boolean => path === '/' || path === '/_emulator' || path.startsWith('/_emulator/');

/** `clock` is the main clock: a request whose key names an account is timed on that account's clock instead. */
export function journalRequests(journal: RequestJournal, clock: Clock, store: Store): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if (!journal.enabled || notJournaled(path)) return next();
    const url = c.req.url;
    const queryStart = url.indexOf('?');
    const pending = new PendingRecord(journal, store, clock, {
      method: c.req.method,
      path,
      query: queryStart < 0 ? '' : url.slice(queryStart + 1),
      environment: apiEnvironment(path) ?? defaultEnvironment,
      account: basicUsername(c.req.header('authorization')) ?? null,
    });
    let responseBody: string | null = null;
    // Keep the JSON text the route answers: it is serialised once anyway, so the journal costs no second pass.
    c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>) => {
      responseBody = JSON.stringify(object);
      return c.body(responseBody, arg as ContentfulStatusCode, { 'Content-Type': 'application/json', ...headers });
    }) as unknown as typeof c.json;
    await next();
    pending.answered(c.res.status, responseBody);
    pending.keep(journalKeepsBody(c.req.method) ? await journalBody(c) : null);
  };
}
