/**
 * What the control operations answer beyond the engine's own views (clocks, worlds, behaviour rates, opt-outs, waits),
 * each one zod schema whose output type is the view's type and whose JSON Schema is the answer's in the OpenAPI document.
 */

import { z } from 'zod';
import { environments } from '../domain/environment.js';
import { formatInstant } from '../domain/time.js';
import type { Core } from '../engine/core.js';
import { accountViewSchema } from '../engine/inspection.js';
import { messageViewSchema } from '../domain/messageView.js';
import { type Clock, clockIncidentSchema, clockRunSchema, clockStateSchema } from '../state/clock.js';
import type { WebhookChaos } from '../webhooks/behaviourRates.js';

/** A clock's time: epoch milliseconds, and the same instant as text; every clock answer shows both. */
const now = clockStateSchema.shape.now.describe(
  "The clock's time as epoch milliseconds (a number: compare and add to it).",
);
const time = z
  .string()
  .describe(
    "The same instant as `now`, as an ISO 8601 text at the API's offset (timeZoneOffset): 2026-11-18T09:46:40+02:00.",
  );

/** A clock incident as shown: when the task was due, rendered in the emulator's offset, instead of epoch ms. */
export const clockIncidentViewSchema = z.strictObject({
  time: z.string(),
  ...clockIncidentSchema.omit({ due: true }).shape,
});
export type ClockIncidentView = z.output<typeof clockIncidentViewSchema>;

const { mode, speed, pendingTasks } = clockStateSchema.shape;
const clockViewShape = {
  now,
  /** The current time rendered in the emulator's offset. */
  time,
  mode,
  speed,
  pendingTasks,
  /** The most recent clock tasks that failed or were skipped, oldest first. */
  incidents: z.array(clockIncidentViewSchema),
  /** How a `runUntilIdle` or `next` command ended: tasks fired, whether nothing is left queued, and why it stopped if not. */
  run: clockRunSchema.optional(),
};

/** The main clock as the control API shows it. */
export const clockViewSchema = z.strictObject(clockViewShape);
export type ClockView = z.output<typeof clockViewSchema>;

/** A test clock: the main clock's view plus its id, optional name and the API keys of the accounts that live on it. */
export const testClockViewSchema = z.strictObject({
  id: z.string(),
  name: z.string().nullable(),
  ...clockViewShape,
  accounts: z.array(z.string()).describe('API keys of the accounts that live on the clock.'),
});
export type TestClockView = z.output<typeof testClockViewSchema>;

/** A test's world as one call makes it: its test clock and the account on it. */
export const worldViewSchema = z.strictObject({ clock: testClockViewSchema, account: accountViewSchema });
export type WorldView = z.output<typeof worldViewSchema>;

/**
 * The delivery-behaviour rates (webhooks.chaos): emulator-wide `duplicate`, `late` and `reorder` behaviours with a probability
 * from 0 to 1, and the hold of `late` (milliseconds out; a duration or milliseconds in).
 */
export const chaosViewSchema = z.strictObject({
  duplicateRate: z.number(),
  delayRate: z.number(),
  reorderRate: z.number(),
  delay: z.number(),
});
export type ChaosView = z.output<typeof chaosViewSchema>;

/**
 * The limits this emulator applies, as started: what a suite in another process reads instead of the landing page's
 * HTML or its own copy of the start flags.
 */
export const limitsViewSchema = z.strictObject({
  batchLimit: z.int().describe('Most recipients per request (BATCH_LIMIT_EXCEEDED above it).'),
  batchLimitNote: z.string().describe("Why that limit: the default or the option, and the spec's two numbers."),
  messageLimit: z.int().describe('Longest message text in characters (MESSAGE_LIMIT_EXCEEDED above it).'),
  maxBodySize: z.int().describe('Largest request body in bytes (PAYLOAD_TOO_LARGE above it).'),
});
export type LimitsView = z.output<typeof limitsViewSchema>;

/** Where a number stands on an account's opt-out list. */
export const optOutViewSchema = z.strictObject({
  account: z.string(),
  environment: z.enum(environments),
  number: z.string(),
  optedOut: z.boolean(),
});
export type OptOutView = z.output<typeof optOutViewSchema>;

/** Where a wait over HTTP ended: the message, and the time its clock shows then (`id` null for the main clock). */
export const waitViewSchema = z.strictObject({
  message: messageViewSchema,
  clock: z.strictObject({ id: z.string().nullable(), now, time }),
});
export type WaitView = z.output<typeof waitViewSchema>;

/** What an operation that changes no view answers: `{"status": "ok"}` and the like. */
export const statusViewSchema = z.strictObject({ status: z.string() });

/** A signature worked out for given fields: the canonical text signed, and the signature. */
export const signatureViewSchema = z.strictObject({ string_to_sign: z.string(), signature: z.string() });
export type SignatureView = z.output<typeof signatureViewSchema>;

/** The scenarios shipped with the emulator, by name, each with what it does. */
export const bundledScenariosViewSchema = z.strictObject({
  scenarios: z.array(z.strictObject({ name: z.string(), description: z.string() })),
});
export type BundledScenariosView = z.output<typeof bundledScenariosViewSchema>;

export function clockView(core: Core, clock: Clock): ClockView {
  const { incidents, ...state } = clock.state();
  const render = (ms: number) => formatInstant(ms, core.offsetMinutes);
  return {
    ...state,
    time: render(state.now),
    incidents: incidents.map(({ due, ...incident }) => ({ time: render(due), ...incident })),
  };
}

export function testClockView(core: Core, clock: Clock): TestClockView {
  const accounts = core.accounts.on(clock).map((account) => account.apiKey);
  return { id: clock.id as string, name: clock.name, ...clockView(core, clock), accounts };
}

export function chaosView({ delayMs, ...rates }: WebhookChaos): ChaosView {
  return { ...rates, delay: delayMs };
}
