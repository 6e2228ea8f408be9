/** The emulator's whole state: is it up, the limits it applies, back to the start (all of it or one account), and snapshots out and in. */

import { exportSnapshot, importSnapshot, importSnapshotInSlices } from '../../engine/snapshots.js';
import { type ListItems, type Snapshot, SnapshotListChecks } from '../../state/snapshot.js';
import type { AccountScope } from '../inputs.js';
import { disarmMessagesOf, findAccount } from '../lookups.js';
import type { OperationDeps } from '../operation.js';
import type { LimitsView } from '../views.js';
import { batchLimitNote } from '../../options.js';
import type { OperationTable } from '../operation.js';
import { accountScope } from '../inputs.js';
import { body } from '../argSpecs.js';

export function health(): { status: 'ok' } {
  return { status: 'ok' };
}

/** The limits applied, read from the options the emulator was started with. */
export function appliedLimits({ core }: OperationDeps): LimitsView {
  const { batchLimit, messageLimit, maxBodySize } = core.options;
  return { batchLimit, batchLimitNote: batchLimitNote(batchLimit), messageLimit, maxBodySize };
}

/**
 * Back to the state at start-up: everything (accounts and their settings, balances, the start-up scenario, opt-outs,
 * delivery-behaviour rates, clock, ids and random draws, logs, timers), or one account (its start-up settings, or the ones it was created
 * with, and no messages, journal entries or webhook log entries).
 */
export function resetState({ core, journal }: OperationDeps, { account }: AccountScope): { status: 'reset' } {
  if (account === undefined) core.startState.reset();
  else {
    disarmMessagesOf(core, findAccount(core, account));
    core.accounts.reset(account);
    // The start-state routine empties the whole journal; one account's reset drops only its entries.
    journal.clear(account);
  }
  core.events.emit('state.replaced', { reason: 'reset' });
  return { status: 'reset' };
}

export function takeSnapshot({ core }: OperationDeps): Snapshot {
  return exportSnapshot(core);
}

/** Replaces the whole state with a snapshot; a snapshot that does not parse changes nothing. */
export function restoreSnapshot({ core }: OperationDeps, input: unknown): { status: 'restored' } {
  importSnapshot(core, input);
  core.events.emit('state.replaced', { reason: 'restore' });
  return { status: 'restored' };
}

/**
 * restoreSnapshot for a body too large to take in one go (over HTTP): parsed as it arrives, each element of the lists
 * checked as it is parsed, then checked whole and put in place, all in slices.
 */
export async function restoreSnapshotInSlices(
  { core }: OperationDeps,
  parse: (items: ListItems) => Promise<unknown>,
  due: () => Promise<void>,
): Promise<{ status: 'restored' }> {
  const checks = new SnapshotListChecks();
  await importSnapshotInSlices(core, await parse(checks), due, checks);
  core.events.emit('state.replaced', { reason: 'restore' });
  return { status: 'restored' };
}

export const healthRow = {
  method: 'GET',
  path: '/health',
  answer: 'Status',
  args: [],
  open: true,
  summary: '`{"status": "ok"}` once the emulator answers (open even with a control token).',
  run: health,
} satisfies OperationTable['health'];

export const limitsRow = {
  method: 'GET',
  path: '/limits',
  answer: 'Limits',
  args: [],
  summary:
    'The limits applied, as started: `{batchLimit, batchLimitNote, messageLimit, maxBodySize}` (most recipients per request and why, longest text in characters, largest body in bytes).',
  run: appliedLimits,
} satisfies OperationTable['limits'];

export const resetRow = {
  method: 'POST',
  path: '/reset',
  answer: 'Status',
  args: [body],
  input: accountScope,
  inputName: 'reset',
  summary: 'Back to the start-up state (see "What `reset` restores"); `{"account": "pk_…"}` resets one account only.',
  run: resetState,
} satisfies OperationTable['reset'];

export const snapshotRow = {
  method: 'GET',
  path: '/snapshot',
  answer: 'Snapshot',
  args: [],
  summary: 'The whole state as JSON.',
  run: takeSnapshot,
} satisfies OperationTable['snapshot'];

export const restoreRow = {
  method: 'PUT',
  path: '/snapshot',
  answer: 'Status',
  args: [body],
  summary:
    'Replaces the whole state with a snapshot (exact round trip, pending timers included); a bad one changes nothing. Over HTTP it is parsed as it arrives, checked and put in place in slices, so health answers throughout; any other request that arrives while it is put in place is refused with SNAPSHOT_IMPORT_RUNNING (503, Retry-After), never half done; larger than maxSnapshotSize is SNAPSHOT_TOO_LARGE, nested deeper than 512 levels SNAPSHOT_TOO_DEEP.',
  run: restoreSnapshot,
  runInSlices: restoreSnapshotInSlices,
} satisfies OperationTable['restore'];
