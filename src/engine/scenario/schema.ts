/** The scenario file format (version 1): one zod definition that validates files and generates the JSON Schema. */

import { z } from 'zod';
import { apiKeySchema, webhookUrlSchema } from '../../domain/accountFields.js';
import { clockInstant } from '../../domain/clockRange.js';
import { errorCodes } from '../../domain/errors.js';
import { routeOperations } from '../../domain/apiOperations.js';
import { scopes } from '../../state/store.js';
import { defaultEnvironment, environments } from '../../domain/environment.js';
import { deliveryOutcomes, legStatuses, reachableStatuses, walkProblem } from '../../domain/message.js';
import { durationSchema, wallWaitSchema } from '../../domain/durationSchema.js';
import { settings } from '../../options.js';
import { networkFaultKinds } from './networkFaults.js';
import { type PatternTest, compileGlob, compileRegex, maxPatternLength, patternProblem } from './pattern.js';
import {
  behavioursDescribed,
  deliveryBehaviourNames,
  maxDeliveriesPerNotification,
  parameterNotes,
  takesAfter,
  timesFits,
} from '../../domain/deliveryBehaviour.js';

/** The kinds of generated reply text a scenario may ask for. */
export const replyTextKinds = ['sentence', 'words', 'yes-no'] as const;
export type ReplyTextKind = (typeof replyTextKinds)[number];

const duration = durationSchema.describe('A duration: 500ms, 2s, 15m, 2h, 7d, or milliseconds.');

const legStatus = z.enum(reachableStatuses);
const outcomeName = z
  .enum(deliveryOutcomes)
  .describe('A named outcome with its usual timeline (see docs/scenarios.md).');

const step = z.strictObject({
  status: legStatus,
  after: duration.describe('Wait after the previous step (or after the send).'),
});

/** Most steps in one timeline (a scenario's or an X-Emulator-Outcome header's): legs may loop staged/pending, and plans are kept per leg. */
export const maxTimelineSteps = 100;

/** A timeline must be a legal walk from `pending`; an illegal one is refused at load, not at run time. */
const timeline = z
  .array(step)
  .min(1)
  .max(maxTimelineSteps)
  .superRefine((steps, context) => {
    const walk = walkProblem(steps.map((entry) => entry.status));
    if (walk) context.addIssue({ code: 'custom', path: [walk.index, 'status'], message: walk.problem });
  });

const weighted = z
  .strictObject({
    weight: z.number().positive(),
    outcome: outcomeName.optional(),
    timeline: timeline.optional(),
  })
  .refine(
    (choice) => (choice.outcome === undefined) !== (choice.timeline === undefined),
    'give exactly one of outcome or timeline',
  );

const outcome = z.union([
  outcomeName,
  z.strictObject({ timeline }),
  z.strictObject({ choose: z.array(weighted).min(1).describe('Weighted timelines, drawn from the seeded generator.') }),
]);

/** A pattern is checked with the engine that will run it, so what loads is exactly what can match. */
function pattern(compile: (source: string) => PatternTest, what: string) {
  return z.string().superRefine((source, context) => {
    const problem = patternProblem(source, compile);
    if (problem !== undefined)
      context.addIssue({
        code: 'custom',
        message: `not a usable ${what} (RE2 syntax, at most ${maxPatternLength} characters): ${problem}`,
      });
  });
}
const regex = pattern(compileRegex, 'regular expression').describe(
  `A regular expression in RE2 syntax (no backreferences or lookaround), at most ${maxPatternLength} characters; matched in linear time.`,
);
const glob = pattern(compileGlob, 'glob').describe(
  `A glob: * any run of characters, ? any one; at most ${maxPatternLength} characters.`,
);

const textMatch = z.union([
  z.string().describe('Matches text that contains this string.'),
  z.strictObject({ contains: z.string().optional(), regex: regex.optional(), exact: z.string().optional() }),
]);

const recipientMatch = z.union([
  glob.describe('An exact number, or a glob with * and ?.'),
  z.strictObject({
    exact: z.string().optional(),
    prefix: z.string().optional(),
    glob: glob.optional(),
    regex: regex.optional(),
  }),
]);

const environment = z.enum(environments);

export const messageMatch = z.strictObject({
  recipient: recipientMatch.optional(),
  text: textMatch.optional(),
  clientReference: textMatch.optional(),
  environment: environment.optional(),
  account: z.string().optional(),
});

const rule = z.strictObject({
  name: z.string().optional(),
  match: messageMatch.default({}),
  outcome,
});

const reply = z
  .strictObject({
    name: z.string().optional(),
    match: messageMatch.default({}),
    after: duration.default('30s'),
    text: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe('Fixed text, or a list to draw from.'),
    generate: z.enum(replyTextKinds).optional().describe('Generated text (seeded faker).'),
  })
  .refine(
    (entry) => (entry.text === undefined) !== (entry.generate === undefined),
    'give exactly one of text or generate',
  );

const fault = z
  .strictObject({
    name: z.string().optional().describe('Lets timeline events start and stop the fault.'),
    enabled: z.boolean().default(true),
    match: z
      .strictObject({
        operation: z.union([z.enum(routeOperations), z.array(z.enum(routeOperations))]).optional(),
        environment: environment.optional(),
        account: z.string().optional(),
        recipient: recipientMatch
          .optional()
          .describe(
            "A send (or an edit) with a recipient that matches; the fault then acts once the request's body has arrived. Never matches other operations.",
          ),
      })
      .default({}),
    error: z
      .strictObject({
        status: z.number().int().min(400).max(599),
        code: z
          .enum(errorCodes)
          .default('INTERNAL_SERVER_ERROR')
          .describe('A code of the error catalogue (docs/errors.md lists them).'),
      })
      .optional(),
    latency: wallWaitSchema.optional().describe('Added to the response time (wall clock).'),
    rateLimit: z
      .strictObject({ requests: z.number().int().min(1), per: duration })
      .optional()
      .describe('Per API key; 429 TOO_MANY_REQUESTS with Retry-After above it.'),
    network: z
      .enum(networkFaultKinds)
      .optional()
      .describe(
        'Instead of an API answer the transport fails: reset, hang-up, html (a proxy 502 page) before the request is handled; truncated, slow-body, reset-after-handling after it (a send is stored and charged). See docs/scenarios.md.',
      ),
    trickle: wallWaitSchema
      .optional()
      .describe('With network: slow-body, how long the body takes to arrive (wall clock); default 2s.'),
    probability: z.number().min(0).max(1).optional(),
    count: z.number().int().min(1).optional().describe('Applies to this many matching requests, then stops.'),
    nth: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Applies to the Nth matching request only (1 is the first): "the second batch fails".'),
    every: z
      .number()
      .int()
      .min(2)
      .optional()
      .describe('Applies to every Nth matching request (every: 3 is the 3rd, 6th, 9th, ...).'),
  })
  .refine(
    (entry) => entry.error || entry.latency !== undefined || entry.rateLimit || entry.network,
    'give at least one of error, latency, rateLimit or network',
  )
  .refine((entry) => entry.nth === undefined || entry.every === undefined, {
    message: 'give nth or every, not both',
    path: ['every'],
  })
  .refine((entry) => entry.network === undefined || (entry.error === undefined && entry.rateLimit === undefined), {
    message: 'a network fault replaces the answer: give it without error or rateLimit',
    path: ['network'],
  })
  .refine((entry) => entry.trickle === undefined || entry.network === 'slow-body', {
    message: 'trickle goes with network: slow-body',
    path: ['trickle'],
  });

const behaviourParameters = parameterNotes();
const webhookBehaviour = z
  .strictObject({
    name: z.string().optional(),
    behaviour: z.enum(deliveryBehaviourNames).describe(behavioursDescribed()),
    match: messageMatch
      .extend({
        status: z
          .union([z.enum(legStatuses), z.literal('reply')])
          .optional()
          .describe("The notification's status, or reply for a reply notification."),
      })
      .default({}),
    times: z.number().int().min(1).max(maxDeliveriesPerNotification).optional().describe(behaviourParameters.times),
    after: duration.optional().describe(behaviourParameters.after),
    probability: z.number().min(0).max(1).optional(),
    count: z.number().int().min(1).optional().describe('Applies to this many matching notifications, then stops.'),
    nth: z.number().int().min(1).optional().describe('Applies to the Nth matching notification only.'),
    every: z.number().int().min(2).optional().describe('Applies to every Nth matching notification.'),
  })
  .refine((entry) => entry.nth === undefined || entry.every === undefined, {
    message: 'give nth or every, not both',
    path: ['every'],
  })
  .refine((entry) => entry.after === undefined || takesAfter(entry.behaviour), {
    message: behaviourParameters.afterMisplaced,
    path: ['after'],
  })
  .refine((entry) => entry.times === undefined || timesFits(entry.behaviour, entry.times), {
    message: behaviourParameters.timesMisplaced,
    path: ['times'],
  });
export type WebhookBehaviourSpec = z.output<typeof webhookBehaviour>;

/**
 * The most entries of each list one scenario (the emulator's or an account's) holds: every leg, request and notification
 * asks them in turn, and a scenario of hundreds of matching duplicates held thousands of posts in memory.
 */
export const scenarioBounds = { rules: 1000, replies: 1000, faults: 100, webhooks: 50 } as const;

/** A scenario list of at most its bound, refused past it with the bound named. */
function boundedList<T extends z.ZodType>(item: T, list: keyof typeof scenarioBounds) {
  const most = scenarioBounds[list];
  return z
    .array(item)
    .max(
      most,
      `at most ${most} ${list} in one scenario (the emulator's or an account's); merge the ones that match alike`,
    );
}

/**
 * An account's own scenario: rules, replies and faults consulted before the emulator's for that account's
 * requests and legs only (options, accounts and timeline events stay emulator-wide).
 */
export const accountScenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1).optional().describe('The scenario format version.'),
  description: z.string().optional(),
  magicNumbers: z
    .boolean()
    .optional()
    .describe(
      "Whether the built-in magic numbers answer this account after its own and the emulator's rules and replies; default true. false: they are not asked for it (the emulator's scenario still is).",
    ),
  rules: boundedList(rule, 'rules').default([]).describe("First match wins, before the emulator's rules."),
  replies: boundedList(reply, 'replies')
    .default([])
    .describe("Inbound replies after a leg is delivered; first match wins, before the emulator's."),
  faults: boundedList(fault, 'faults')
    .default([])
    .describe("Faults for this account's requests, applied before the emulator's."),
  webhooks: boundedList(webhookBehaviour, 'webhooks')
    .default([])
    .describe("Delivery behaviours for this account's notifications, applied with the emulator's."),
});

/** A test clock's id: letters, digits, `_`, `-` and `.`, so it fits a URL path as it is. */
const clockId = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'expected an id of 1 to 100 letters, digits, _, - or .');

const accountEntry = z.strictObject({
  apiKey: apiKeySchema,
  signingSecret: z.string().min(1).optional(),
  webhookSigningSecret: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe(
      "Signs this account's webhooks (Webhook-Signature); null: unsigned; default the emulator's webhookSigningSecret.",
    ),
  balance: z.number().int().min(0).optional(),
  sandboxBalance: z.number().int().min(0).optional(),
  webhookUrl: webhookUrlSchema.nullable().optional(),
  sandboxWebhookUrl: webhookUrlSchema.nullable().optional(),
  scopes: z.array(z.enum(scopes)).optional(),
  optOuts: z.array(z.string()).optional().describe('Numbers opted out (live and sandbox).'),
  scenario: accountScenarioSchema
    .optional()
    .describe("This account's own rules, replies and faults, consulted before the emulator's."),
  clock: clockId
    .optional()
    .describe('The id of a test clock (under clocks, or made at runtime) the account lives on; none: the main clock.'),
});

const clockEntry = z.strictObject({
  id: clockId.describe('How accounts (and the control API) name the clock.'),
  name: z.string().min(1).max(200).optional(),
  startTime: clockInstant
    .optional()
    .describe("ISO 8601 time the clock starts at (and returns to on reset); default the main clock's now."),
});

const target = { account: z.string().optional(), environment: environment.default(defaultEnvironment) };

const timelineEvent = z
  .strictObject({
    at: duration.describe('Clock offset from the moment the scenario is loaded.'),
    setBalance: z.strictObject({ ...target, balance: z.number().int().min(0) }).optional(),
    addBalance: z.strictObject({ ...target, credits: z.number().int() }).optional(),
    reply: z
      .strictObject({ ...target, from: z.string(), text: z.string().min(1) })
      .optional()
      .describe('A reply from a number to the latest message sent to it.'),
    webhookUrl: z.strictObject({ ...target, url: webhookUrlSchema.nullable() }).optional(),
    startFault: z.string().optional(),
    stopFault: z.string().optional(),
  })
  .refine((entry) => Object.keys(entry).length === 2, 'give exactly one action besides at');

/** Options a scenario may set: every emulator option except where to listen. */
const scenarioOptions = z.strictObject(
  Object.fromEntries(
    Object.entries(settings)
      .filter(([name]) => name !== 'host' && name !== 'port')
      // Without the defaults: a scenario sets only what it names, so other sources keep theirs.
      .map(([name, entry]) => [
        name,
        (entry.schema instanceof z.ZodDefault ? entry.schema.unwrap() : entry.schema).optional(),
      ]),
  ) as Record<string, z.ZodOptional<z.ZodType>>,
);

export const scenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1).describe('The scenario format version.'),
  description: z.string().optional(),
  options: scenarioOptions.optional(),
  magicNumbers: z
    .boolean()
    .optional()
    .describe(
      "Whether the built-in magic numbers (27830000001-27830000009) answer after this scenario's own rules and replies; default true. false: only this scenario decides.",
    ),
  accounts: z
    .array(accountEntry)
    .superRefine((accounts, context) => {
      // An account is known by its key; a second entry with it would silently replace the first.
      const seen = new Map<string, number>();
      accounts.forEach(({ apiKey }, index) => {
        const first = seen.get(apiKey);
        if (first === undefined) seen.set(apiKey, index);
        else
          context.addIssue({
            code: 'custom',
            path: [index, 'apiKey'],
            message: `"${apiKey}" is already the key of accounts[${first}]; give each account once`,
          });
      });
    })
    .default([])
    .describe("Accounts by API key, each once: created, or (the default account's key) updated."),
  clocks: z
    .array(clockEntry)
    .superRefine((clocks, context) => {
      const seen = new Map<string, number>();
      clocks.forEach(({ id }, index) => {
        const first = seen.get(id);
        if (first === undefined) seen.set(id, index);
        else
          context.addIssue({
            code: 'custom',
            path: [index, 'id'],
            message: `"${id}" is already the id of clocks[${first}]; give each clock once`,
          });
      });
    })
    .default([])
    .describe(
      'Test clocks, each frozen until moved; accounts name one with clock. Made at start-up and again at every reset.',
    ),
  rules: boundedList(rule, 'rules')
    .default([])
    .describe('First match wins; unmatched legs follow the default timeline.'),
  replies: boundedList(reply, 'replies')
    .default([])
    .describe('Inbound replies after a leg is delivered; first match wins.'),
  faults: boundedList(fault, 'faults').default([]),
  webhooks: boundedList(webhookBehaviour, 'webhooks')
    .default([])
    .describe(
      'Delivery behaviours: what real gateways do to notifications (duplicates, disorder, late receipts, ...).',
    ),
  timeline: z.array(timelineEvent).default([]),
});

/** A scenario as written (YAML, JSON or an object): version, options, accounts, rules, replies, faults, timeline. */
export type ScenarioInput = z.input<typeof scenarioSchema>;
/** The active scenario, defaults filled in. */
export type Scenario = z.output<typeof scenarioSchema>;
/** An account's own scenario as written. */
export type AccountScenarioInput = z.input<typeof accountScenarioSchema>;
/** An account's own scenario, defaults filled in. */
export type AccountScenario = z.output<typeof accountScenarioSchema>;
export type ScenarioRule = Scenario['rules'][number];
export type ScenarioReply = Scenario['replies'][number];
export type ScenarioFault = Scenario['faults'][number];
export type MessageMatch = z.output<typeof messageMatch>;
export type OutcomeSpec = ScenarioRule['outcome'];
export type TimelineEventSpec = Scenario['timeline'][number];
export type ScenarioClock = Scenario['clocks'][number];
