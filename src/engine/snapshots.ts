/** Exporting the whole state as JSON data and importing it again, exactly, pending work included. */

import { ApiError } from '../domain/errors.js';
import { environments } from '../domain/message.js';
import { ScenarioError, validateScenario } from './scenario/parse.js';
import { type AccountScenario, accountScenarioSchema } from './scenario/schema.js';
import { type Snapshot, type SnapshotListChecks, parseSnapshot, parseSnapshotInSlices } from '../state/snapshot.js';
import type { Account } from '../state/store.js';
import { settingsOf } from './accounts.js';
import { type Core, randomStreams } from './core.js';

/** A snapshot's account scenario, checked as the control API checks one; a bad one refuses the whole snapshot. */
function accountScenarioOf(input: unknown, source: string): AccountScenario {
  try {
    return validateScenario(input, source, undefined, accountScenarioSchema);
  } catch (error) {
    if (error instanceof ScenarioError)
      throw new ApiError('CONTROL_INVALID_REQUEST', `Invalid snapshot: ${error.message}`);
    throw error;
  }
}

export function exportSnapshot(core: Core): Snapshot {
  const { store, clock, random } = core;
  const state = clock.state();
  // A clone's arrays are fresh: records share read-only histories, a snapshot's are its own to change.
  return structuredClone<unknown>({
    version: 1 as const,
    clock: { now: state.now, mode: state.mode, speed: state.speed },
    clocks: core.clocks.list().map((testClock) => ({ id: testClock.id, name: testClock.name, now: testClock.now() })),
    random: Object.fromEntries(randomStreams.map((stream) => [stream, random[stream].save()])),
    accounts: [...store.accounts.values()].map(settingsOf),
    messages: environments.flatMap((environment) => [...store.allMessages(environment)]),
    replies: environments.flatMap((environment) => store.replies(environment)),
  }) as Snapshot;
}

/** Replaces the whole state with a snapshot; a snapshot that fails parseSnapshot's complete check changes nothing. */
export function importSnapshot(core: Core, input: unknown): void {
  const snapshot = structuredClone(parseSnapshot(input));
  const scenarios = checkAccounts(core, snapshot);
  while (!scenarios.next().done);
  const apply = applySnapshot(core, snapshot);
  while (!apply.next().done);
}

/**
 * importSnapshot for a snapshot too large to take in one go (an import over HTTP): checked in slices, then put in place
 * in slices, awaiting `due()` between items so the event loop keeps answering. A refused one changes nothing; while it
 * is put in place it holds `core.imports`, which refuses requests (the input is consumed: parsed fresh from a body, not
 * shared).
 * `checks` holds the lists already checked as the body was parsed.
 */
export async function importSnapshotInSlices(
  core: Core,
  input: unknown,
  due: () => Promise<void>,
  checks?: SnapshotListChecks,
): Promise<void> {
  const snapshot = await parseSnapshotInSlices(input, due, checks);
  const scenarios = checkAccounts(core, snapshot);
  while (!scenarios.next().done) await due();
  // Two imports may be checked side by side; they are put in place one after the other.
  await core.imports.hold(async () => {
    const apply = applySnapshot(core, snapshot);
    while (!apply.next().done) await due();
  });
}

/**
 * Checks each account's own scenario and webhook URLs (none may be the emulator itself), yielding after each account, so
 * a caller can check in slices.
 */
function* checkAccounts(core: Core, snapshot: Snapshot): Generator<undefined, void> {
  for (const [index, account] of snapshot.accounts.entries()) {
    core.accounts.checkUrl(account.live.webhookUrl, `snapshot accounts[${index}] webhook URL`);
    core.accounts.checkUrl(account.sandbox.webhookUrl, `snapshot accounts[${index}] sandbox webhook URL`);
    if (account.scenario !== undefined)
      account.scenario = accountScenarioOf(account.scenario, `snapshot accounts[${index}].scenario`);
    yield;
  }
}

/** Puts a checked snapshot in place of the state, yielding after each clock, account and message, so a caller can work in slices. */
function* applySnapshot(core: Core, snapshot: Snapshot): Generator<undefined, void> {
  const { store, clock, lifecycle, random } = core;
  // The same routine reset uses empties everything; the active scenario stays, its pending timeline events do not.
  core.startState.clear();
  // Stopped while put in place: a realtime clock would fire the timers of the messages already resumed (and move on)
  // between slices, before the rest of the snapshot is there. It runs from the snapshot's time once all of it is.
  clock.configure({ mode: 'manual' });
  clock.restart(snapshot.clock.now);
  for (const stream of randomStreams) {
    const state = snapshot.random[stream];
    if (state) random[stream].restore(state);
  }
  for (const saved of snapshot.clocks) {
    core.clocks.create({ id: saved.id, name: saved.name, startTime: saved.now });
    yield;
  }
  for (const { webhookSigningSecret, ...saved } of snapshot.accounts) {
    // A snapshot made before accounts had their own webhook secret: the emulator's option signs, as it did then.
    const ownSecret =
      webhookSigningSecret === undefined ? (core.options.webhookSigningSecret ?? null) : webhookSigningSecret;
    core.accounts.add({ ...saved, webhookSigningSecret: ownSecret });
    yield;
  }
  for (const message of snapshot.messages) {
    const account = store.accounts.get(message.apiKey) as Account;
    store.addMessage(account, message);
    lifecycle.resume(account, message);
    yield;
  }
  for (const reply of snapshot.replies) {
    store.addReply(reply);
    yield;
  }
  clock.configure({ mode: snapshot.clock.mode, speed: snapshot.clock.speed });
}
