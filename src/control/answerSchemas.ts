/**
 * JSON Schemas (2020-12) of what the control operations answer, for the OpenAPI document, each derived from the zod
 * schema its view's TypeScript type derives from, so a view and its answer schema cannot say different things. A test
 * drives every operation and checks its answer against these, with no extra properties allowed.
 */

import { z } from 'zod';
import { accountScenarioSchema, scenarioSchema } from '../engine/scenario/schema.js';
import { accountViewSchema } from '../engine/inspection.js';
import { costExplanationSchema } from '../domain/costExplanation.js';
import { messageViewSchema } from '../domain/messageView.js';
import { spendSchema } from '../domain/spend.js';
import { webhookEventSchema } from '../domain/webhookEvent.js';
import { journalEntrySchema } from '../journal/requestJournal.js';
import { snapshotSchema } from '../state/snapshot.js';
import { receiverReportSchema } from '../webhooks/checkReceiver.js';
import {
  bundledScenariosViewSchema,
  chaosViewSchema,
  clockViewSchema,
  limitsViewSchema,
  optOutViewSchema,
  signatureViewSchema,
  statusViewSchema,
  testClockViewSchema,
  waitViewSchema,
  worldViewSchema,
} from './views.js';

export type Schema = Record<string, unknown>;

/** A zod schema's JSON Schema as the document embeds it (without its `$schema` line): what it takes in, or what the emulator outputs. */
export function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'output'): Schema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
  return rest;
}

/** The zod view schema of every answer the emulator only gives out, by the name operations declare it with. */
export const answerViews = {
  Status: statusViewSchema,
  Limits: limitsViewSchema,
  Count: z.int(),
  PhoneNumber: z.string(),
  Clock: clockViewSchema,
  TestClock: testClockViewSchema,
  Account: accountViewSchema,
  World: worldViewSchema,
  ControlMessage: messageViewSchema,
  Wait: waitViewSchema,
  WebhookEvent: webhookEventSchema,
  Chaos: chaosViewSchema,
  OptOut: optOutViewSchema,
  JournalEntry: journalEntrySchema,
  Signature: signatureViewSchema,
  CostExplanation: costExplanationSchema,
  Spend: spendSchema,
  BundledScenarios: bundledScenariosViewSchema,
  ReceiverReport: receiverReportSchema,
} satisfies Record<string, z.ZodType>;

/** The order a schema's own keywords are written in, as the hand-written schemas had them; any other keyword follows. */
const keywordOrder = ['type', 'enum', 'required', 'properties', 'additionalProperties', 'items', 'description'];
const safeBounds = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/**
 * A view's JSON Schema in the document's house style: an integer without the safe-integer bounds zod writes on every
 * `.int()` (views count and time things the emulator made; the bounds say nothing to a reader), keywords in one order.
 */
export function fromView(schema: z.ZodType): Schema {
  return tidy(fromZod(schema));
}

function tidy(schema: Schema): Schema {
  const tidied: Schema = {};
  const keys = Object.keys(schema).sort((a, b) => rank(a) - rank(b));
  for (const key of keys) {
    const value = schema[key];
    if (schema.type === 'integer' && (key === 'minimum' || key === 'maximum') && value === safeBounds[key]) continue;
    if (key === 'properties')
      tidied[key] = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([n, s]) => [n, tidy(s)]));
    else if (key === 'items' || key === 'additionalProperties')
      tidied[key] = typeof value === 'object' && value !== null ? tidy(value as Schema) : value;
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') tidied[key] = (value as Schema[]).map(tidy);
    else tidied[key] = value;
  }
  return tidied;
}

function rank(keyword: string): number {
  const place = keywordOrder.indexOf(keyword);
  return place === -1 ? keywordOrder.length : place;
}

/** Every answer shape, by the name operations declare it with; `#/components/schemas/<name>` in the document. */
export function answerSchemas() {
  const { BundledScenarios, ReceiverReport, ...views } = answerViews;
  const derived = Object.fromEntries(Object.entries(views).map(([name, view]) => [name, fromView(view)]));
  return {
    ...(derived as Record<keyof typeof views, Schema>),
    // What the emulator takes in as much as gives out: their schemas stay zod's own, bounds and all.
    Scenario: fromZod(scenarioSchema),
    AccountScenario: fromZod(accountScenarioSchema),
    BundledScenarios: fromView(BundledScenarios),
    Snapshot: fromZod(snapshotSchema()),
    ReceiverReport: fromView(ReceiverReport),
  };
}

export type AnswerName = keyof ReturnType<typeof answerSchemas>;
