/**
 * JSON Schemas (2020-12) of what the control operations answer, for the OpenAPI document. A test drives every operation
 * and checks its answer against these, with no extra properties allowed, so a view that changes shape without its
 * schema fails there.
 */

import { z } from 'zod';
import { accountScenarioSchema, scenarioSchema } from '../engine/scenario/schema.js';
import { environments } from '../domain/environment.js';
import { incidentOutcomes, runStops } from '../state/clock.js';
import { clockModes } from '../domain/clockRange.js';
import { messageTypes, transitions } from '../domain/message.js';
import { snapshotSchema } from '../state/snapshot.js';
import { scopes } from '../state/store.js';
import { webhookKinds, webhookStates } from '../domain/webhookEvent.js';
import { deliveryBehaviourNames } from '../domain/deliveryBehaviour.js';
import { encodings } from '../domain/segments.js';
import { receiverCheckNames } from '../webhooks/receiverChecks.js';

export type Schema = Record<string, unknown>;

const string = { type: 'string' };
const integer = { type: 'integer' };
const nullable = (type: string) => ({ type: [type, 'null'] });
const strings = { type: 'array', items: string };
const environment = { type: 'string', enum: [...environments] };
const messageStatuses = Object.keys(transitions);

/** An object whose listed properties are all required unless named in `optional`, and nothing else. */
function object(properties: Record<string, Schema>, optional: string[] = []): Schema {
  return {
    type: 'object',
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
    additionalProperties: false,
  };
}

const change = object({ status: { type: 'string', enum: messageStatuses }, at: string });
const wallet = object({ balance: integer, webhookUrl: nullable('string'), optOuts: strings, messages: integer });

/** A zod schema's JSON Schema as the document embeds it (without its `$schema` line): what it takes in, or what the emulator outputs. */
export function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'output'): Schema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
  return rest;
}

/** Every answer shape, by the name operations declare it with; `#/components/schemas/<name>` in the document. */
export function answerSchemas(): Record<string, Schema> {
  const clock = {
    now: { type: 'integer', description: "The clock's time as epoch milliseconds (a number: compare and add to it)." },
    time: {
      type: 'string',
      description:
        "The same instant as `now`, as an ISO 8601 text at the API's offset (timeZoneOffset): 2026-11-18T09:46:40+02:00.",
    },
    mode: { type: 'string', enum: [...clockModes] },
    speed: { type: 'number' },
    pendingTasks: integer,
    incidents: {
      type: 'array',
      items: object({
        time: string,
        task: string,
        outcome: { type: 'string', enum: [...incidentOutcomes] },
        reason: string,
      }),
    },
    run: object(
      {
        fired: integer,
        idle: { type: 'boolean' },
        stoppedAt: { type: 'string', enum: [...runStops] },
      },
      ['stoppedAt'],
    ),
  };
  const testClock = object(
    {
      id: string,
      name: nullable('string'),
      ...clock,
      accounts: { ...strings, description: 'API keys of the accounts that live on the clock.' },
    },
    ['run'],
  );
  const account = object({
    apiKey: string,
    signingSecret: string,
    scopes: { type: 'array', items: { type: 'string', enum: scopes } },
    live: wallet,
    sandbox: wallet,
    clock: { ...nullable('string'), description: 'The test clock the account lives on; null for the main clock.' },
  });
  const controlMessage = object(
    {
      id: string,
      type: { type: 'string', enum: [...messageTypes] },
      environment,
      account: string,
      recipient: strings,
      message: string,
      segments: integer,
      encoding: { type: 'string', enum: [...encodings] },
      ucs2_trigger: nullable('string'),
      client_reference: nullable('string'),
      schedule: nullable('string'),
      status: { type: 'string', enum: [...messageStatuses, 'deleted'] },
      credit: integer,
      creation_date: string,
      delivery_date: nullable('string'),
      deleted_at: string,
      in_reply_to: string,
      history: { type: 'array', items: change },
      legs: {
        type: 'array',
        items: object({
          recipient: string,
          status: { type: 'string', enum: messageStatuses },
          history: { type: 'array', items: change },
          upcoming: { type: 'array', items: change },
        }),
      },
    },
    ['deleted_at', 'in_reply_to'],
  );
  const boolean = { type: 'boolean' };
  const held = object({ status: string, notifications: integer }, ['notifications']);
  const receiverReport = object(
    {
      url: { ...string, description: "The receiver's URL (a password in it masked)." },
      passed: boolean,
      timeoutMs: integer,
      state: { ...string, description: "The state hook's template, when one was given (a password in it masked)." },
      checks: {
        type: 'array',
        items: object(
          {
            name: { type: 'string', enum: [...receiverCheckNames] },
            sends: string,
            passed: boolean,
            reason: { ...string, description: 'Why it passed or failed, in a sentence naming the post or sequence.' },
            gatewayNext: { ...string, description: "What a real gateway does next, by the spec's retry rule." },
            answers: {
              type: 'array',
              items: object({ about: string, status: integer, error: string, cutAfterBytes: integer, ms: integer }, [
                'status',
                'error',
                'cutAfterBytes',
              ]),
            },
            state: {
              type: 'array',
              description:
                "With a state hook: what it answered after the check's sequences, up to the first that failed.",
              items: object(
                {
                  message: string,
                  expected: object({ status: string, notifications: integer }),
                  held,
                  error: string,
                  passed: boolean,
                },
                ['held', 'error'],
              ),
            },
          },
          ['state'],
        ),
      },
      unseen: {
        ...strings,
        description:
          'What the run could not see (without a state hook: a duplicate processed twice, an older status written over a newer one), each with where to prove it instead.',
      },
      unreachable: { ...string, description: 'Set when nothing answered the first check (the rest were not run).' },
    },
    ['state', 'unreachable'],
  );
  return {
    Status: object({ status: string }),
    Limits: object({
      batchLimit: { ...integer, description: 'Most recipients per request (BATCH_LIMIT_EXCEEDED above it).' },
      batchLimitNote: {
        ...string,
        description: "Why that limit: the default or the option, and the spec's two numbers.",
      },
      messageLimit: {
        ...integer,
        description: 'Longest message text in characters (MESSAGE_LIMIT_EXCEEDED above it).',
      },
      maxBodySize: { ...integer, description: 'Largest request body in bytes (PAYLOAD_TOO_LARGE above it).' },
    }),
    Count: integer,
    PhoneNumber: string,
    Clock: object(clock, ['run']),
    TestClock: testClock,
    Account: account,
    World: object({ clock: testClock, account }),
    ControlMessage: controlMessage,
    Wait: object({
      message: controlMessage,
      clock: object({ id: nullable('string'), now: clock.now, time: clock.time }),
    }),
    WebhookEvent: object(
      {
        id: string,
        kind: { type: 'string', enum: [...webhookKinds] },
        environment,
        account: string,
        messageId: string,
        recipient: string,
        status: string,
        createdAt: string,
        url: nullable('string'),
        state: { type: 'string', enum: [...webhookStates] },
        payload: { description: 'The JSON body posted (the delivery or reply payload of the spec).' },
        attempts: {
          type: 'array',
          items: object(
            {
              number: integer,
              at: string,
              url: string,
              status: integer,
              error: string,
              durationMs: { type: 'number' },
              ok: { type: 'boolean' },
            },
            ['status', 'error'],
          ),
        },
        behaviours: {
          type: 'array',
          items: { type: 'string', enum: [...deliveryBehaviourNames] },
          description: 'The delivery behaviours that touched the event, by name, in the order of their table.',
        },
        duplicateOf: {
          type: 'string',
          description: 'A duplicate: the id of the event it repeats, which it is posted under (X-Emulator-Event-Id).',
        },
      },
      ['duplicateOf'],
    ),
    Chaos: object({
      duplicateRate: { type: 'number' },
      delayRate: { type: 'number' },
      reorderRate: { type: 'number' },
      delay: { type: 'number' },
    }),
    OptOut: object({ account: string, environment, number: string, optedOut: { type: 'boolean' } }),
    JournalEntry: object({
      id: string,
      wallTime: string,
      time: string,
      method: string,
      path: string,
      query: string,
      environment,
      account: nullable('string'),
      status: { type: 'integer', description: '0 when no HTTP answer was sent (a network fault).' },
      network: nullable('string'),
      code: nullable('string'),
      messageId: nullable('string'),
      durationMs: { type: 'number' },
      requestBody: {
        description: 'Parsed JSON when the body was JSON, else the text; over 16 KiB it is cut and says so.',
      },
      responseBody: { description: 'The JSON answered, if any.' },
    }),
    Signature: object({ string_to_sign: string, signature: string }),
    Scenario: fromZod(scenarioSchema),
    AccountScenario: fromZod(accountScenarioSchema),
    BundledScenarios: object({
      scenarios: { type: 'array', items: object({ name: string, description: string }) },
    }),
    Snapshot: fromZod(snapshotSchema()),
    ReceiverReport: receiverReport,
  };
}

export type AnswerName = keyof ReturnType<typeof answerSchemas>;
