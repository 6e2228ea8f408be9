/** Each control answer's type and its schema in the OpenAPI document come from one zod view schema, so they cannot drift. */

import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, expect, expectTypeOf, test, vi } from 'vitest';
import { z } from 'zod';
import { answerSchemas, answerViews, fromView } from '../../src/control/answerSchemas.js';
import type { ControlHandle } from '../../src/control/handle.js';
import type { AccountView, ChangeView, MessageView, WebhookEvent } from '../../src/index.js';
import { makeEmulator } from '../support/api.js';

afterEach(() => {
  vi.doUnmock('../../src/domain/messageView.js');
  vi.resetModules();
});

/** The answers whose schema is what the emulator takes in as well (scenario and snapshot files): zod's own, not a view's. */
const takenIn = ['Scenario', 'AccountScenario', 'Snapshot'];

test('every answer schema of the OpenAPI document is the JSON Schema of a zod view, none written by hand', () => {
  const schemas = answerSchemas();
  const viewNames = Object.keys(answerViews);
  expect(Object.keys(schemas).filter((name) => !takenIn.includes(name) && !viewNames.includes(name))).toEqual([]);
  for (const [name, view] of Object.entries(answerViews))
    expect(schemas[name as keyof typeof schemas]).toEqual(fromView(view));
  expect(viewNames.length).toBeGreaterThan(15);
});

test('a field added to a view schema appears in its answer schema in the OpenAPI document, required unless optional', async () => {
  vi.doMock('../../src/domain/messageView.js', async (original) => {
    const real = await original<typeof import('../../src/domain/messageView.js')>();
    const grown = real.messageViewSchema.extend({ label: z.string(), note: z.string().optional() });
    return { ...real, messageViewSchema: grown };
  });
  const { openApiDocument } = await import('../../src/control/openapi.js');
  const schemas = (openApiDocument() as { components: { schemas: Record<string, Record<string, unknown>> } }).components
    .schemas;
  for (const name of ['ControlMessage', 'Wait']) {
    const message = (
      name === 'Wait' ? (schemas[name]?.properties as Record<string, unknown>).message : schemas[name]
    ) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(message.properties.label).toEqual({ type: 'string' });
    expect(message.properties.note).toEqual({ type: 'string' });
    expect(message.required).toContain('label');
    expect(message.required).not.toContain('note');
  }
});

test("the handle's answers are typed by the view schemas the answer schemas come from", () => {
  type Local = ControlHandle<'local'>;
  expectTypeOf<ReturnType<Local['messages']['get']>>().toEqualTypeOf<z.output<typeof answerViews.ControlMessage>>();
  expectTypeOf<ReturnType<Local['accounts']['get']>>().toEqualTypeOf<z.output<typeof answerViews.Account>>();
  expectTypeOf<ReturnType<Local['worlds']['create']>>().toEqualTypeOf<z.output<typeof answerViews.World>>();
  expectTypeOf<ReturnType<Local['webhooks']['get']>>().toEqualTypeOf<z.output<typeof answerViews.WebhookEvent>>();
  expectTypeOf<ReturnType<Local['clocks']['get']>>().toEqualTypeOf<z.output<typeof answerViews.TestClock>>();
  expectTypeOf<MessageView['history'][number]>().toEqualTypeOf<ChangeView>();
  expectTypeOf<AccountView>().toEqualTypeOf<z.output<typeof answerViews.Account>>();
  expectTypeOf<WebhookEvent>().toEqualTypeOf<z.output<typeof answerViews.WebhookEvent>>();
});

test('an account with its own scenario answers what the Account and World schemas declare (its scenario is read on its own)', async () => {
  const emulator = makeEmulator();
  try {
    const schemas = answerSchemas();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const world = await emulator.worlds.create({ scenario: { rules: [{ match: {}, outcome: 'undelivered' }] } });
    const validWorld = ajv.compile(schemas.World);
    expect(validWorld(world) ? [] : validWorld.errors).toEqual([]);
    const validAccount = ajv.compile(schemas.Account);
    const account = emulator.accounts.get(world.account.apiKey);
    expect(validAccount(account) ? [] : validAccount.errors).toEqual([]);
    expect(emulator.accounts.getScenario(world.account.apiKey)).toMatchObject({ rules: [{ outcome: 'undelivered' }] });
  } finally {
    await emulator.close();
  }
});
