/** Serves the API handler inside the hono app (`emulator.fetch`, and the node listener's fallback): hono's request as a record, the answer as a response. */

import type { Handler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiRequest } from './apiExchange.js';
import type { ApiHandler } from './apiHandler.js';
import { readBody } from './body.js';
import { journalBody } from './middleware/journal.js';

export function honoApi(handler: ApiHandler): Handler {
  return async (c) => {
    const url = c.req.url;
    const queryStart = url.indexOf('?');
    const request: ApiRequest = {
      method: c.req.method,
      path: c.req.path,
      url,
      query: queryStart < 0 ? '' : url.slice(queryStart + 1),
      header: (name) => c.req.header(name),
      queryParams: () => c.req.query(),
      body: (maxBytes) => readBody(c, maxBytes),
      journalBody: () => journalBody(c),
    };
    const answer = await handler(request);
    // hono itself leaves the body out for a HEAD.
    return c.body(answer.body, answer.status as ContentfulStatusCode, { 'Content-Type': 'application/json', ...answer.headers });
  };
}
