/** The control API under /_emulator: the same operations as the library handle, one route each. */

import { type Context, Hono } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { Control } from '../../engine/control.js';
import type { ClockCommand } from '../../engine/controlInput.js';
import { decodeControlBody, decodeControlText, readBody } from '../body.js';
import { requireControlToken } from '../middleware/controlToken.js';
import { methodNotAllowed } from '../middleware/methods.js';

export interface ControlRouteDeps {
  control: Control;
  /** Moves the clock and resolves once the work it made due has settled (webhooks included). */
  moveClock(command: ClockCommand): Promise<unknown>;
  controlToken: string | undefined;
}

async function jsonBody(c: Context): Promise<unknown> {
  return decodeControlBody(await readBody(c));
}

function environmentOf(c: Context): 'live' | 'sandbox' {
  const value = c.req.query('environment') ?? 'live';
  if (value !== 'live' && value !== 'sandbox') throw new ApiError('CONTROL_INVALID_REQUEST', `environment must be live or sandbox; got "${value}".`);
  return value;
}

export function controlRoutes({ control, moveClock, controlToken }: ControlRouteDeps): Hono {
  const routes = new Hono();
  routes.get('/health', (c) => c.json({ status: 'ok' }));
  routes.use('*', requireControlToken(controlToken));

  routes.get('/clock', (c) => c.json(control.clockState()));
  routes.post('/clock', async (c) => c.json(await moveClock((await jsonBody(c)) as ClockCommand)));

  routes.post('/sign', async (c) => c.json(control.sign(await jsonBody(c), c.req.query('account'))));

  routes.get('/accounts', (c) => c.json({ accounts: control.listAccounts() }));
  routes.post('/accounts', async (c) => c.json(control.createAccount((await jsonBody(c)) as never), 201));
  routes.get('/accounts/:key', (c) => c.json(control.account(c.req.param('key'))));
  routes.patch('/accounts/:key', async (c) => c.json(control.updateAccount(c.req.param('key'), (await jsonBody(c)) as never)));
  routes.delete('/accounts/:key', (c) => {
    control.deleteAccount(c.req.param('key'));
    return c.body(null, 204);
  });

  routes.get('/messages', (c) => c.json({ messages: control.listMessages(c.req.query()) }));
  routes.get('/messages/:id', (c) => c.json(control.message(c.req.param('id'))));
  routes.post('/messages/:id/status', async (c) => c.json(await control.forceStatus(c.req.param('id'), (await jsonBody(c)) as never)));
  routes.post('/messages/:id/replies', async (c) => {
    const body = (await jsonBody(c)) as Record<string, unknown>;
    return c.json(control.injectReply({ ...body, messageId: c.req.param('id') } as never), 201);
  });
  routes.get('/replies', (c) => c.json({ replies: control.listReplies(c.req.query()) }));

  routes.get('/scenario', (c) => c.json(control.scenario()));
  routes.put('/scenario', async (c) => {
    const text = decodeControlText(await readBody(c));
    return c.json(control.replaceScenario(text));
  });
  routes.get('/opt-outs', (c) => c.json({ optOuts: control.optOuts(c.req.query('account'), environmentOf(c)) }));
  routes.put('/opt-outs/:number', (c) => c.json({ optOuts: control.setOptOut(c.req.param('number'), true, c.req.query('account'), environmentOf(c)) }));
  routes.delete('/opt-outs/:number', (c) => c.json({ optOuts: control.setOptOut(c.req.param('number'), false, c.req.query('account'), environmentOf(c)) }));

  routes.get('/webhooks', (c) => c.json({ webhooks: control.listWebhooks(c.req.query()) }));
  routes.get('/webhooks/chaos', (c) => c.json(control.webhookChaos()));
  routes.post('/webhooks/chaos', async (c) => c.json(control.webhookChaos((await jsonBody(c)) as never)));
  routes.get('/webhooks/:id', (c) => c.json(control.webhook(c.req.param('id'))));
  routes.post('/webhooks/:id/redeliver', async (c) => c.json(await control.redeliverWebhook(c.req.param('id'))));

  routes.post('/reset', async (c) => {
    const body = (await jsonBody(c)) as { account?: string };
    control.reset(body.account ?? c.req.query('account'));
    return c.json({ status: 'reset' });
  });
  routes.get('/snapshot', (c) => c.json(control.snapshot()));
  routes.put('/snapshot', async (c) => {
    control.restore(await jsonBody(c));
    return c.json({ status: 'restored' });
  });

  routes.all('/clock', methodNotAllowed(['GET', 'POST']));
  routes.all('/accounts', methodNotAllowed(['GET', 'POST']));
  routes.all('/accounts/:key', methodNotAllowed(['GET', 'PATCH', 'DELETE']));
  routes.all('/messages', methodNotAllowed(['GET']));
  routes.all('/messages/:id', methodNotAllowed(['GET']));
  routes.all('/messages/:id/status', methodNotAllowed(['POST']));
  routes.all('/scenario', methodNotAllowed(['GET', 'PUT']));
  routes.all('/opt-outs', methodNotAllowed(['GET']));
  routes.all('/opt-outs/:number', methodNotAllowed(['PUT', 'DELETE']));
  routes.all('/webhooks', methodNotAllowed(['GET']));
  routes.all('/webhooks/chaos', methodNotAllowed(['GET', 'POST']));
  routes.all('/webhooks/:id', methodNotAllowed(['GET']));
  routes.all('/webhooks/:id/redeliver', methodNotAllowed(['POST']));
  routes.all('/sign', methodNotAllowed(['POST']));
  routes.all('/reset', methodNotAllowed(['POST']));
  routes.all('/snapshot', methodNotAllowed(['GET', 'PUT']));
  return routes;
}
