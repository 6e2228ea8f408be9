/** Exporting the whole state as JSON data and importing it again, exactly, pending work included. */

import { environments } from '../domain/message.js';
import { type Snapshot, parseSnapshot } from '../state/snapshot.js';
import type { Account } from '../state/store.js';
import { settingsOf } from './accounts.js';
import { type Core, randomStreams } from './core.js';

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
    replies: environments.flatMap((environment) => store.replies[environment]),
  }) as Snapshot;
}

/** Replaces the whole state with a snapshot; a snapshot that fails parseSnapshot's complete check changes nothing. */
export function importSnapshot(core: Core, input: unknown): void {
  const snapshot = structuredClone(parseSnapshot(input));
  const { store, clock, lifecycle, random } = core;
  // The same routine reset uses empties everything; the active scenario stays, its pending timeline events do not.
  core.startState.clear();
  clock.restart(snapshot.clock.now);
  clock.configure({ mode: snapshot.clock.mode, speed: snapshot.clock.speed });
  for (const stream of randomStreams) {
    const state = snapshot.random[stream];
    if (state) random[stream].restore(state);
  }
  for (const saved of snapshot.clocks) core.clocks.create({ id: saved.id, name: saved.name, startTime: saved.now });
  for (const saved of snapshot.accounts) core.accounts.add(saved);
  for (const message of snapshot.messages) {
    const account = store.accounts.get(message.apiKey) as Account;
    store.addMessage(account, message);
    lifecycle.resume(account, message);
  }
  for (const reply of snapshot.replies) store.addReply(reply);
}
