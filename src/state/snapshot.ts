/** The whole emulator state as plain JSON data, its schema, and the complete check a snapshot passes before it is imported. */

import { z } from 'zod';
import { apiKeySchema, webhookUrlSchema } from '../domain/accountFields.js';
import { clockId, clockModes, clockName, clockSpeed, maxTime } from '../domain/clockRange.js';
import { ApiError } from '../domain/errors.js';
import { describeIssues } from '../domain/issues.js';
import { environments } from '../domain/environment.js';
import {
  type MessageStatus,
  aggregateStatus,
  messageStatuses,
  messageTypes,
  startStatuses,
  walkProblem,
} from '../domain/message.js';
import { maxDurationMs, maxInstant, minInstant } from '../domain/time.js';
import { scopes } from './store.js';

/** Size bounds: far above what the emulator makes, low enough that a crafted snapshot cannot exhaust memory or time. */
const maxText = 100_000;
const maxList = 100_000;
const maxSteps = 10_000;
const maxName = 1_000;

/** The schema of a snapshot: about 120 zod schemas, built on first use (an import, the OpenAPI document) and not at every start. */
function buildSnapshotSchema() {
  const statusValue = z.enum(messageStatuses);
  const instant = z.number().int().min(minInstant).max(maxInstant);
  const change = z.strictObject({ status: statusValue, at: instant });
  const environment = z.enum(environments);
  const name = z.string().min(1).max(maxName);
  const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

  const message = z.strictObject({
    id: name,
    type: z.enum(messageTypes),
    environment,
    apiKey: name,
    recipients: z.array(name).max(maxList),
    text: z.string().max(maxText),
    clientReference: z.string().max(maxText).nullable(),
    scheduleAt: instant.nullable(),
    status: statusValue,
    credit: count,
    createdAt: instant,
    deliveredAt: instant.nullable(),
    legs: z
      .array(
        z.strictObject({
          recipient: name,
          status: statusValue,
          history: z.array(change).min(1).max(maxSteps),
          plan: z.array(change).max(maxSteps),
        }),
      )
      .max(maxList),
    history: z.array(change).min(1).max(maxSteps),
    inReplyTo: name.optional(),
    deletedAt: instant.optional(),
    outcomeOverride: z
      .array(
        z.strictObject({
          status: statusValue.exclude(['scheduled']),
          afterMs: z.number().int().min(0).max(maxDurationMs),
        }),
      )
      .max(maxSteps)
      .optional(),
  });

  const wallet = z.strictObject({
    balance: count,
    webhookUrl: webhookUrlSchema.max(maxName * 8).nullable(),
    optOuts: z.array(name).max(maxList),
  });
  const word = z.number().int().min(0).max(0xffff_ffff);

  return z.strictObject({
    version: z.literal(1),
    clock: z.strictObject({
      now: z.number().int().min(minInstant).max(maxTime),
      mode: z.enum(clockModes),
      speed: clockSpeed,
    }),
    /** The test clocks (always manual), each with its time; absent in snapshots made before test clocks. */
    clocks: z
      .array(
        z.strictObject({ id: clockId, name: clockName.nullable(), now: z.number().int().min(minInstant).max(maxTime) }),
      )
      .max(maxList)
      .default([]),
    random: z.record(z.string().max(maxName), z.tuple([word, word, word, word])),
    accounts: z.array(
      z.strictObject({
        apiKey: apiKeySchema.max(maxName),
        signingSecret: name,
        /** Signs the account's webhooks (null: unsigned); absent in snapshots made before it, where the emulator's option does. */
        webhookSigningSecret: name.nullable().optional(),
        scopes: z.array(z.enum(scopes)).max(scopes.length),
        live: wallet,
        sandbox: wallet,
        scenario: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("The account's own scenario (checked by the engine on import)."),
        /** The test clock the account lives on; null or absent for the main clock. */
        clock: clockId.nullable().default(null),
      }),
    ),
    messages: z.array(message),
    replies: z.array(message),
  });
}

let schema: ReturnType<typeof buildSnapshotSchema> | undefined;
export function snapshotSchema(): ReturnType<typeof buildSnapshotSchema> {
  return (schema ??= buildSnapshotSchema());
}

export type Snapshot = z.output<ReturnType<typeof buildSnapshotSchema>>;
type SavedMessage = Snapshot['messages'][number];
type Change = { status: MessageStatus; at: number };

/**
 * The snapshot, checked completely: its shape, then every rule the engine relies on (unique keys and
 * ids, references that exist, legal status walks and plans, consistent aggregates, ordered times).
 * Throws CONTROL_INVALID_REQUEST naming the path of the first problem; nothing is changed by a check.
 */
export function parseSnapshot(input: unknown): Snapshot {
  const parsed = snapshotSchema().safeParse(input);
  if (!parsed.success) throw invalid(describeIssues(parsed.error, 'snapshot'));
  const snapshot = parsed.data;
  const checks = consistencyProblem(snapshot);
  let step = checks.next();
  while (!step.done) step = checks.next();
  if (step.value) throw invalid(step.value);
  return snapshot;
}

/** The lists a snapshot can hold many of, checked item by item when it is parsed in slices. */
const lists = ['clocks', 'accounts', 'messages', 'replies'] as const;
type List = (typeof lists)[number];

/** The schema of one element of each list. */
function elementSchemas() {
  const shape = snapshotSchema().shape;
  return {
    clocks: shape.clocks.unwrap().element,
    accounts: shape.accounts.element,
    messages: shape.messages.element,
    replies: shape.replies.element,
  };
}

/** What a parse that streams hands the elements of a top-level list to, one by one, as they are parsed. */
export interface ListItems {
  /** Where the elements of the top-level field `key` go, or undefined to parse it as any other value. */
  list(key: string): ListSink | undefined;
}

/** One top-level list's elements, taken as they are parsed. */
export interface ListSink {
  /** What the list keeps of its element number `index`. */
  take(index: number, value: unknown): unknown;
  /** The end of the list: `kept` holds what `take` gave back, and the parsed value holds it. */
  end(kept: unknown[]): unknown[];
}

/** Where a streamed list's elements went: the checked elements, and the list's first problem, if any. */
interface CheckedList {
  items: unknown[];
  problem: string | undefined;
}

/**
 * The snapshot's lists checked element by element while the body is parsed (ListItems for the streaming parse): each
 * raw element is let go as soon as it is checked, so it never outlives its slice, and the first problem of each list is
 * kept for parseSnapshotInSlices to report in the order a check of the whole snapshot would (a repeated field starts
 * its list again, as the last value of a repeated key wins).
 */
export class SnapshotListChecks implements ListItems {
  private readonly checked = new Map<string, CheckedList>();

  list(key: string): ListSink | undefined {
    if (!isList(key)) return undefined;
    const element = elementSchemas()[key];
    let problem: string | undefined;
    return {
      take: (index, value) => {
        // Past a list's first problem the rest is only parsed: the first problem is the one reported.
        if (problem !== undefined) return undefined;
        const parsed = element.safeParse(value);
        if (parsed.success) return parsed.data;
        for (const issue of parsed.error.issues) issue.path.unshift(key, index);
        problem = describeIssues(parsed.error, 'snapshot');
        return undefined;
      },
      end: (items) => {
        this.checked.set(key, { items, problem });
        return items;
      },
    };
  }

  /** The check of `items` when they are the list `key` this check made, else undefined (the list was parsed whole). */
  of(key: List, items: unknown[]): CheckedList | undefined {
    const checked = this.checked.get(key);
    return checked?.items === items ? checked : undefined;
  }
}

/**
 * parseSnapshot in slices, for a snapshot too large to check in one go: the lists item by item, awaiting `due()`
 * between items (it gives the event loop a turn when a slice's time is up), then the same consistency rules. A list
 * `checks` already checked while it was parsed is not checked again; each raw item is let go once checked, so memory
 * holds the body's values once. The input is consumed; nothing else changes.
 */
export async function parseSnapshotInSlices(
  input: unknown,
  due: () => Promise<void>,
  checks?: SnapshotListChecks,
): Promise<Snapshot> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return parseSnapshot(input);
  const raw = input as Record<string, unknown>;
  const elements = elementSchemas();
  const top = snapshotSchema().safeParse(
    Object.fromEntries(
      Object.entries(raw).map(([key, value]) => [key, isList(key) && Array.isArray(value) ? [] : value]),
    ),
  );
  if (!top.success) throw invalid(describeIssues(top.error, 'snapshot'));
  const snapshot = top.data;
  if (Array.isArray(raw.clocks) && raw.clocks.length > maxList)
    throw invalid(`clocks: too big: expected at most ${maxList} clocks`);
  for (const list of lists) {
    const items = raw[list];
    if (!Array.isArray(items)) continue;
    const streamed = checks?.of(list, items);
    if (streamed !== undefined) {
      if (streamed.problem !== undefined) throw invalid(streamed.problem);
      (snapshot as Record<string, unknown>)[list] = items;
      continue;
    }
    const checked: unknown[] = [];
    for (let index = 0; index < items.length; index++) {
      await due();
      const parsed = elements[list].safeParse(items[index]);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) issue.path.unshift(list, index);
        throw invalid(describeIssues(parsed.error, 'snapshot'));
      }
      checked.push(parsed.data);
      items[index] = undefined;
    }
    (snapshot as Record<string, unknown>)[list] = checked;
  }
  const rules = consistencyProblem(snapshot);
  let step = rules.next();
  while (!step.done) {
    await due();
    step = rules.next();
  }
  if (step.value) throw invalid(step.value);
  return snapshot;
}

function isList(key: string): key is List {
  return (lists as readonly string[]).includes(key);
}

function invalid(problem: string): ApiError {
  return new ApiError('CONTROL_INVALID_REQUEST', `Invalid snapshot: ${problem}.`);
}

/** The first broken rule, if any: a generator that yields after each clock, account and message, so a caller can check in slices. */
function* consistencyProblem(snapshot: Snapshot): Generator<undefined, string | undefined> {
  const clocks = new Set<string>();
  for (const [index, clock] of snapshot.clocks.entries()) {
    if (clocks.has(clock.id)) return `clocks.${index}.id: "${clock.id}" is defined twice`;
    clocks.add(clock.id);
    yield;
  }
  const keys = new Set<string>();
  for (const [index, account] of snapshot.accounts.entries()) {
    if (keys.has(account.apiKey)) return `accounts.${index}.apiKey: "${account.apiKey}" is defined twice`;
    if (account.clock !== null && !clocks.has(account.clock))
      return `accounts.${index}.clock: no clock in the snapshot has the id "${account.clock}"`;
    keys.add(account.apiKey);
    yield;
  }
  const ids = new Map<string, SavedMessage>();
  for (const [list, type] of [
    ['messages', 'sms'],
    ['replies', 'sms-reply'],
  ] as const) {
    for (const [index, message] of snapshot[list].entries()) {
      const path = `${list}.${index}`;
      if (message.type !== type) return `${path}.type: expected "${type}" in ${list}`;
      if (ids.has(message.id))
        return `${path}.id: "${message.id}" is used twice (ids are unique across accounts and environments)`;
      ids.set(message.id, message);
      yield;
      if (!keys.has(message.apiKey))
        return `${path}.apiKey: message ${message.id} belongs to account "${message.apiKey}", which the snapshot does not define`;
      const problem = type === 'sms' ? smsProblem(message) : replyProblem(message, ids);
      if (problem) return `${path}.${problem}`;
    }
  }
  return undefined;
}

function smsProblem(message: SavedMessage): string | undefined {
  if (message.inReplyTo !== undefined) return 'inReplyTo: only a reply answers a message';
  if (message.deletedAt !== undefined && message.status !== 'scheduled')
    return 'deletedAt: only a scheduled message can be deleted';
  if (message.legs.length === 0 || message.legs.length !== message.recipients.length)
    return 'legs: expected one leg per recipient';
  for (const [index, leg] of message.legs.entries()) {
    if (leg.recipient !== message.recipients[index])
      return `legs.${index}.recipient: expected "${message.recipients[index]}", the recipient at the same place`;
    const first = leg.history[0] as Change;
    if (!startStatuses.includes(first.status))
      return `legs.${index}.history.0.status: a leg starts ${startStatuses.join(' or ')}`;
    const walk = timedWalkProblem(leg.history.slice(1), first.status, first.at, 'history', 1);
    if (walk) return `legs.${index}.${walk}`;
    const last = leg.history[leg.history.length - 1] as Change;
    if (leg.status !== last.status)
      return `legs.${index}.status: expected "${last.status}", the last status in its history`;
    const plan = timedWalkProblem(leg.plan, leg.status, last.at, 'plan', 0);
    if (plan) return `legs.${index}.${plan}`;
  }
  const expected = aggregateStatus(message.legs);
  if (message.status !== expected) return `status: expected "${expected}", the status its legs add up to`;
  if (message.status === 'scheduled' && message.scheduleAt === null)
    return 'scheduleAt: a scheduled message needs its time';
  if (message.outcomeOverride) {
    const override = walkProblem(message.outcomeOverride.map((step) => step.status));
    if (override) return `outcomeOverride.${override.index}.status: ${override.problem}`;
  }
  return historyProblem(message);
}

function replyProblem(reply: SavedMessage, ids: ReadonlyMap<string, SavedMessage>): string | undefined {
  if (reply.legs.length > 0) return 'legs: a reply has no delivery legs';
  const answered = reply.inReplyTo === undefined ? undefined : ids.get(reply.inReplyTo);
  if (answered?.type !== 'sms' || answered.environment !== reply.environment || answered.apiKey !== reply.apiKey) {
    return `inReplyTo: expected the id of a message of account "${reply.apiKey}" in ${reply.environment}`;
  }
  return historyProblem(reply);
}

/** The message-level history: times in order, ending in the message's status. */
function historyProblem(message: SavedMessage): string | undefined {
  const history = message.history as Change[];
  for (let index = 1; index < history.length; index++) {
    if ((history[index] as Change).at < (history[index - 1] as Change).at)
      return `history.${index}.at: earlier than the change before it`;
  }
  const last = history[history.length - 1] as Change;
  if (last.status !== message.status) return `status: expected "${last.status}", the last status in its history`;
  return undefined;
}

/** Every step a legal move from the one before (from `from` at `since`), in time order; `offset` is the first step's place in `field`. */
function timedWalkProblem(
  steps: readonly Change[],
  from: MessageStatus,
  since: number,
  field: string,
  offset: number,
): string | undefined {
  const walk = walkProblem(
    steps.map((step) => step.status),
    from,
  );
  const early = steps.findIndex((step, index) => step.at < (index === 0 ? since : (steps[index - 1] as Change).at));
  if (walk && (early < 0 || walk.index <= early)) return `${field}.${walk.index + offset}.status: ${walk.problem}`;
  return early < 0 ? undefined : `${field}.${early + offset}.at: earlier than the step before it`;
}
