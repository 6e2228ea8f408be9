/** The OpenAPI document's `webhooks`: every payload the emulator posts validates against the schema it declares. */

import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher } from '../../src/index.js';
import { call, makeEmulator, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

type Document = {
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
};

test('the document declares the delivery notification, the reply and the STOP reply as OpenAPI 3.1 webhooks', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const document = (await call(emulator, 'GET', '/_emulator/openapi.json', { key: false })).body as Document;
  const bodies = Object.fromEntries(
    Object.entries(document.webhooks).map(([name, item]) => [
      name,
      item.post.requestBody.content['application/json']?.schema.$ref,
    ]),
  );
  expect(bodies).toEqual({
    deliveryNotification: '#/components/schemas/DeliveryNotification',
    reply: '#/components/schemas/ReplyNotification',
    stopReply: '#/components/schemas/ReplyNotification',
  });
});

test('every payload posted (submitted, delivered, undelivered, a reply, a STOP reply) validates against its webhook schema, with no undeclared field', async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({
    webhookUrl: catcher.url,
    scenario: { version: 1, rules: [{ match: { recipient: '27831110000' }, outcome: 'undelivered' }] },
  });
  open.push(catcher, emulator);
  const document = (await call(emulator, 'GET', '/_emulator/openapi.json', { key: false })).body as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const schemaOf = { sms: 'DeliveryNotification', 'sms-reply': 'ReplyNotification' } as const;

  const sent = await send(emulator, {
    recipient: ['27831234567', '27831110000'],
    message: 'Your parcel is on its way ☃',
    client_reference: 'order-7',
  });
  await call(emulator, 'POST', '/_emulator/clock', { raw: JSON.stringify({ advance: '1m' }), key: false });
  for (const text of ['Thanks!', 'STOP'])
    await call(emulator, 'POST', `/_emulator/messages/${sent.id}/replies`, {
      raw: JSON.stringify({ from: '27831234567', text }),
      key: false,
    });
  await emulator.webhooks.settled();

  const payloads = catcher.received.map(
    (request) => request.body as { type: 'sms' | 'sms-reply'; status: string; message: string },
  );
  expect(
    payloads.map((payload) => `${payload.type}:${payload.type === 'sms' ? payload.status : payload.message}`).sort(),
  ).toEqual(
    [
      'sms:submitted',
      'sms:submitted',
      'sms:delivered',
      'sms:undelivered',
      'sms-reply:Thanks!',
      'sms-reply:STOP',
    ].sort(),
  );
  for (const payload of payloads) {
    const validate = ajv.getSchema(`openapi.json#/components/schemas/${schemaOf[payload.type]}`);
    expect(validate, schemaOf[payload.type]).toBeDefined();
    expect(validate!(payload), JSON.stringify(validate!.errors)).toBe(true);
  }
  // The schema is strict: a field the emulator does not post fails it, so a payload that grows one fails above.
  const [first] = payloads;
  expect(ajv.getSchema('openapi.json#/components/schemas/DeliveryNotification')!({ ...first, extra: 1 })).toBe(false);
});
