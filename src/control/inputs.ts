/**
 * Schemas of what the control operations accept (the table's `input`s), each with one type name: runOperation parses
 * with them and the handlers take what they produce. No schema transforms its input, so what a caller writes and what a
 * handler receives are the same type.
 */

import { z } from 'zod';
import { apiKeySchema, webhookUrlSchema } from '../domain/accountFields.js';
import { environments } from '../domain/environment.js';
import { type ShownStatus, reachableStatuses, shownStatuses } from '../domain/message.js';
import { isValidMsisdn } from '../domain/msisdn.js';
import { durationSchema } from '../domain/durationSchema.js';
import { clockId, clockInstant, clockModes, clockName, clockSpeed } from '../domain/clockRange.js';
import { webhookStates } from '../domain/webhookEvent.js';
import { scopes } from '../state/store.js';
import { receiverCheckNames } from '../webhooks/receiverChecks.js';

const environment = z.enum(environments);

const webhookUrl = webhookUrlSchema.nullable();
const credits = z.number().int().min(0);
/** A webhook signing secret; null sends the account's webhooks unsigned. */
const webhookSigningSecret = z.string().min(1).nullable();

export const accountInput = z.strictObject({
  apiKey: apiKeySchema,
  signingSecret: z.string().min(1).optional(),
  webhookSigningSecret: webhookSigningSecret.optional(),
  balance: credits.optional(),
  sandboxBalance: credits.optional(),
  webhookUrl: webhookUrl.optional(),
  sandboxWebhookUrl: webhookUrl.optional(),
  scopes: z.array(z.enum(scopes)).optional(),
  clock: clockId.optional(),
});
/** An account to create: `apiKey` (pk_…), and optionally its signing secret, webhook signing secret, balances, webhook URLs, scopes and the test `clock` it lives on. */
export type AccountInput = z.infer<typeof accountInput>;

const environmentPatch = z.strictObject({
  balance: credits.optional(),
  addBalance: z.number().int().optional(),
  webhookUrl: webhookUrl.optional(),
});

export const accountPatch = z.strictObject({
  signingSecret: z.string().min(1).optional(),
  webhookSigningSecret: webhookSigningSecret.optional(),
  scopes: z.array(z.enum(scopes)).optional(),
  live: environmentPatch.optional(),
  sandbox: environmentPatch.optional(),
});
/** Changes to an account: signing secret, webhook signing secret, scopes, and per environment `balance`, `addBalance` or `webhookUrl`. */
export type AccountPatch = z.infer<typeof accountPatch>;

export const clockCommand = z
  .strictObject({
    advance: durationSchema.optional(),
    set: clockInstant.optional(),
    mode: z.enum(clockModes).optional(),
    speed: clockSpeed.optional(),
    runUntilIdle: z.literal(true).optional(),
    limit: durationSchema.optional(),
    next: z.literal(true).optional(),
  })
  .refine((command) => !(command.runUntilIdle && command.next), 'give runUntilIdle or next, not both')
  .refine(
    (command) =>
      !((command.runUntilIdle || command.next) && (command.advance !== undefined || command.set !== undefined)),
    {
      message: 'runUntilIdle and next move the clock themselves; give them without advance or set',
    },
  )
  .refine((command) => command.limit === undefined || command.runUntilIdle, {
    message: 'limit goes with runUntilIdle',
    path: ['limit'],
  });
/** A clock move: `advance`, `set`, `mode`, `speed`, or `runUntilIdle` (with `limit`) or `next`. */
export type ClockCommand = z.infer<typeof clockCommand>;

export const testClockInput = z.strictObject({
  startTime: clockInstant.optional(),
  name: clockName.optional(),
});
/** A test clock to create: `startTime` (ISO; default the main clock's now) and an optional `name`. */
export type TestClockInput = z.infer<typeof testClockInput>;

/** A test world in one call: a test clock, an account on it (its key drawn when absent) and the account's own scenario. */
export const worldInput = z.strictObject({
  name: clockName.optional(),
  startTime: clockInstant.optional(),
  account: accountInput.omit({ clock: true }).partial({ apiKey: true }).optional(),
  /** Checked as `PUT /accounts/{key}/scenario` checks it (an object or YAML/JSON text). */
  scenario: z.unknown().optional(),
});
/** A world to make: clock `name` and `startTime`, the `account`'s settings and its own `scenario`, all optional. */
export type WorldInput = z.infer<typeof worldInput>;

/** What a wait over HTTP waits for: a status (or `deleted`), within a duration of the message's clock (default 1h). */
export const waitInput = z.strictObject({
  status: z.enum(shownStatuses as [ShownStatus, ...ShownStatus[]]),
  within: durationSchema.optional(),
});
export type WaitInput = z.infer<typeof waitInput>;

export const replyInput = z.strictObject({
  from: z.string().refine(isValidMsisdn, 'expected a number such as 27831234567').optional(),
  text: z.string().min(1, 'the reply needs text'),
});
/** An inbound reply to inject into a sent message: the replying number (default the first recipient) and the text. */
export type ReplyInput = z.infer<typeof replyInput>;

export const messageFilter = z.strictObject({
  environment: environment.optional(),
  account: z.string().optional(),
  // A status no message can have (a typo such as "deliverd") is refused rather than answered with an empty list.
  status: z
    .string()
    .refine(
      (status) => (shownStatuses as readonly string[]).includes(status),
      `expected one of ${shownStatuses.join(', ')}`,
    )
    .optional(),
  recipient: z.string().optional(),
  clientReference: z.string().min(1).max(100).optional().describe('The exact client_reference a send gave.'),
});
/** Which messages a control list shows: by environment, account, status, recipient or client reference. */
export type MessageFilter = z.infer<typeof messageFilter>;

/** A forced outcome: any status a leg can be moved to (not back to `pending`), for all open legs or one recipient. */
export const forceStatusInput = z.strictObject({
  status: z.enum(reachableStatuses),
  recipient: z.string().refine(isValidMsisdn, 'expected a number such as 27831234567').optional(),
});
export type ForceStatusInput = z.infer<typeof forceStatusInput>;

/** One account (what a reset, or a wait for webhook tries, is limited to), or all when none is given. */
export const accountScope = z.strictObject({ account: z.string().optional() });
export type AccountScope = z.infer<typeof accountScope>;

/** A text to explain the cost of: at most 10,000 characters (ten times the longest text a send takes, for drafts), to 1 to 10,000 recipients. */
export const costInput = z.strictObject({
  text: z.string().max(10_000),
  recipients: z.int().min(1).max(10_000).optional(),
});
export type CostInput = z.infer<typeof costInput>;

/** Whose opt-out list a call means: the default account and live unless given. */
export const optOutTarget = z.strictObject({ account: z.string().optional(), environment: environment.optional() });
export type OptOutTarget = z.infer<typeof optOutTarget>;

/** A list that takes no filter, only its page. */
export const noFilter = z.strictObject({});

export const webhookFilter = z.strictObject({
  account: z.string().optional(),
  environment: environment.optional(),
  message: z.string().optional(),
  state: z.enum(webhookStates).optional(),
});
/** Which webhook events a control list shows: by account, environment, message or state. */
export type WebhookFilterInput = z.infer<typeof webhookFilter>;

const rate = z.number().min(0).max(1);
export const webhookChaosInput = z.strictObject({
  duplicateRate: rate.optional(),
  delayRate: rate.optional(),
  reorderRate: rate.optional(),
  delay: durationSchema.optional(),
});
/** Delivery-behaviour rates to set: duplicate, delay (late) and reorder rates (0 to 1) and the delay (late's hold). */
export type WebhookChaosInput = z.infer<typeof webhookChaosInput>;

const checkName = z.enum(receiverCheckNames);
/**
 * A check-receiver run: the receiver's URL and the options of `checkReceiver()`. The receiver is `receiver` and its
 * timeout `receiverTimeout`, not `url` and `timeout`: those are the CLI's connection flags, which every command takes.
 */
export const receiverCheckInput = z
  .strictObject({
    receiver: webhookUrlSchema.describe("The receiver's URL, as a webhook URL."),
    state: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The receiver's state hook: a URL template with {id} (or {clientReference}), read after each sequence.",
      ),
    receiverTimeout: durationSchema
      .optional()
      .describe("How long the receiver may take to answer one post or read (default the emulator's webhookTimeout)."),
    only: z.array(checkName).min(1).optional().describe('Only these checks.'),
    skip: z.array(checkName).optional().describe('Every check but these.'),
    seed: z.string().min(1).optional().describe('Ids and texts repeat for a seed (default check-receiver).'),
    at: clockInstant.optional().describe("The instant the payloads' times are built around (default now)."),
    signingSecret: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Signs each post with Webhook-Signature (default the account's webhookSigningSecret, else the emulator's).",
      ),
    account: apiKeySchema
      .optional()
      .describe(
        "An account (a world's key) whose webhookSigningSecret signs the posts when signingSecret is not given.",
      ),
  })
  .refine((input) => input.only === undefined || input.skip === undefined, 'give only or skip, not both');
/** A check-receiver run over the control API: `receiver`, and `state`, `receiverTimeout`, `only` or `skip`, `seed`, `at`, `signingSecret`, `account`. */
export type ReceiverCheckInput = z.infer<typeof receiverCheckInput>;
