// Baseline: a bare hono app on @hono/node-server with the same routes, auth check and answers.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { authorized, balanceJson, messageJson, unauthorizedJson } from './answers.js';

const app = new Hono();
app.use('*', async (c, next) => {
  if (!authorized(c.req.header('authorization')))
    return c.body(unauthorizedJson, 401, { 'content-type': 'application/json' });
  await next();
});
const origin = (c) => `http://${c.req.header('host')}`;
app.get('/v1/messages/balance', (c) => c.body(balanceJson(origin(c)), 200, { 'content-type': 'application/json' }));
app.post('/v1/messages', async (c) =>
  c.body(messageJson(origin(c), await c.req.json()), 201, { 'content-type': 'application/json' }),
);

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
  process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`),
);
server.keepAliveTimeout = 5_000;
process.on('SIGTERM', () => process.exit(0));
