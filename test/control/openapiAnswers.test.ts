/** The OpenAPI document describes what every control operation answers: each answer validates against its declared schema. */

import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, expect, test } from 'vitest';
import { isRoute, operationList } from '../../src/control/operationList.js';
import { createWebhookCatcher } from '../../src/index.js';
import { call, makeEmulator, scheduleIn, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** Where each operation sits in the document: its path template and method. */
function locate(document: Document): Map<string, { template: string; method: string; operation: Operation }> {
  const found = new Map<string, { template: string; method: string; operation: Operation }>();
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods))
      found.set(operation.operationId, { template, method, operation });
  }
  return found;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

test('every control operation answers what the OpenAPI document declares, with no undeclared fields', async () => {
  const catcher = await createWebhookCatcher();
  catcher.respondWith([500, 200]);
  const emulator = makeEmulator({ webhookUrl: catcher.url });
  open.push(catcher, emulator);
  const document = (await call(emulator, 'GET', '/_emulator/openapi.json', { key: false })).body as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const operations = locate(document);

  // State for every view to show something: messages with history, a reply, a deletion, webhook tries, an opt-out.
  const sent = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Hello ☃' });
  const later = await send(emulator, { recipient: ['27831234567'], message: 'Later', schedule: scheduleIn(60) });
  const pending = await send(emulator, { recipient: ['27831234567'], message: 'Pending', schedule: scheduleIn(120) });
  await call(emulator, 'DELETE', `/v1/messages/${later.id}`);
  await call(emulator, 'POST', '/_emulator/clock', { raw: JSON.stringify({ advance: '1m' }), key: false });
  const event = (await call(emulator, 'GET', '/_emulator/webhooks?limit=1', { key: false })).body.items[0].id as string;
  const snapshot = (await call(emulator, 'GET', '/_emulator/snapshot', { key: false })).body;
  const scenario = (await call(emulator, 'GET', '/_emulator/scenario', { key: false })).body;
  const testClock = (
    await call(emulator, 'POST', '/_emulator/clocks', { raw: JSON.stringify({ name: 'answers' }), key: false })
  ).body.id as string;
  const doomedClock = (await call(emulator, 'POST', '/_emulator/clocks', { raw: '{}', key: false })).body.id as string;

  const arguments_: Record<string, { path?: Record<string, string>; query?: string; body?: unknown; text?: string }> = {
    'clock.move': { body: { advance: '5m' } },
    'clocks.get': { path: { id: testClock } },
    'clocks.create': { body: { startTime: '2030-01-01T00:00:00Z' } },
    'clocks.move': { path: { id: testClock }, body: { runUntilIdle: true } },
    'clocks.delete': { path: { id: doomedClock } },
    'accounts.list': {},
    'accounts.get': { path: { key: 'pk_test_sms_emulator' } },
    'accounts.create': { body: { apiKey: 'pk_answers', webhookUrl: catcher.url, clock: testClock } },
    'accounts.update': { path: { key: 'pk_answers' }, body: { live: { addBalance: 5 } } },
    'accounts.delete': { path: { key: 'pk_answers' } },
    'accounts.getScenario': { path: { key: 'pk_test_sms_emulator' } },
    'accounts.spend': { path: { key: 'pk_test_sms_emulator' } },
    'accounts.useBundledScenario': { path: { key: 'pk_test_sms_emulator', name: 'happy-path' } },
    'accounts.setScenario': {
      path: { key: 'pk_test_sms_emulator' },
      text: JSON.stringify({
        rules: [{ match: { recipient: '27831234567' }, outcome: 'undelivered' }],
        replies: [{ text: 'Yes' }],
        faults: [{ match: { operation: 'balance' }, latency: 1, count: 1 }],
      }),
    },
    'accounts.clearScenario': { path: { key: 'pk_test_sms_emulator' } },
    'messages.list': { query: 'limit=5' },
    'messages.get': { path: { id: later.id } },
    'messages.forceStatus': { path: { id: pending.id }, body: { status: 'failed' } },
    'messages.wait': { path: { id: sent.id }, body: { status: 'delivered', within: '1h' } },
    'worlds.create': { body: { name: 'answers world', account: { webhookUrl: catcher.url } } },
    'replies.inject': { path: { id: sent.id }, body: { text: 'Yes' } },
    'replies.list': {},
    'webhooks.list': {},
    'webhooks.get': { path: { id: event } },
    'webhooks.redeliver': { path: { id: event } },
    'webhooks.setChaos': { body: { delay: '1s' } },
    'scenario.set': { text: JSON.stringify(scenario) },
    'scenario.useBundled': { path: { name: 'happy-path' } },
    'optOuts.add': { path: { number: '27831234567' } },
    'optOuts.list': {},
    'optOuts.remove': { path: { number: '27831234567' } },
    'requests.find': { query: 'limit=3' },
    sign: { body: { message: 'Hi', recipient: ['27831234567'] } },
    cost: { body: { text: 'It’s here', recipients: 2 } },
    // A catcher answers its status as text, so the state hook's reading is an error: the readings' schema is checked too.
    receiverCheck: {
      body: { receiver: catcher.url, state: `${catcher.url}?message={id}`, only: ['late'], receiverTimeout: '2s' },
    },
    restore: { body: snapshot },
    reset: { body: {} },
  };
  const routes = operationList().filter(([, op]) => isRoute(op));
  // Table order would reset before the operations after it; run reset and restore last.
  const order = [
    ...routes.filter(([id]) => id !== 'reset' && id !== 'restore'),
    ...routes.filter(([id]) => id === 'restore' || id === 'reset'),
  ];
  const checked: string[] = [];
  for (const [operationId] of order) {
    const location = operations.get(operationId);
    expect(location, `${operationId} is in the document`).toBeDefined();
    const { template, method, operation } = location!;
    const input = arguments_[operationId] ?? {};
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.path?.[name] ?? ''));
    const reply = await call(emulator, method.toUpperCase(), `${path}${input.query ? `?${input.query}` : ''}`, {
      key: false,
      ...(input.text !== undefined
        ? { raw: input.text }
        : input.body !== undefined
          ? { raw: JSON.stringify(input.body) }
          : {}),
    });
    const status = Object.keys(operation.responses).find((code) => code.startsWith('2'))!;
    expect(String(reply.status), `${operationId}: ${JSON.stringify(reply.body)}`).toBe(status);
    if (operation.responses[status]?.content === undefined) {
      expect(reply.body, operationId).toBeUndefined();
    } else {
      const where = pointer('paths', template, method, 'responses', status, 'content', 'application/json', 'schema');
      const valid = ajv.validate({ $ref: `openapi.json#/${where}` }, reply.body);
      expect(ajv.errors ?? [], `${operationId} answered ${JSON.stringify(reply.body).slice(0, 400)}`).toEqual([]);
      expect(valid).toBe(true);
    }
    checked.push(operationId);
  }
  expect(checked).toEqual(order.map(([id]) => id));
});

test('a view field the document does not declare fails the check', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const document = (await call(emulator, 'GET', '/_emulator/openapi.json', { key: false })).body as Document;
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const clock = (await call(emulator, 'GET', '/_emulator/clock', { key: false })).body;
  expect(ajv.validate({ $ref: 'openapi.json#/components/schemas/Clock' }, clock)).toBe(true);
  expect(ajv.validate({ $ref: 'openapi.json#/components/schemas/Clock' }, { ...clock, surprise: 1 })).toBe(false);
});
