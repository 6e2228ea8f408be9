/** Exporting the whole state as JSON data and importing it again, exactly, pending work included. */

import { ApiError } from '../domain/errors.js';
import { describeIssues } from '../domain/issues.js';
import { type Environment, environments } from '../domain/message.js';
import { type Snapshot, snapshotSchema } from '../state/snapshot.js';
import type { Account } from '../state/store.js';
import { type Core, randomStreams } from './core.js';

export function exportSnapshot(core: Core): Snapshot {
  const { store, clock, random } = core;
  const state = clock.state();
  return structuredClone({
    version: 1 as const,
    clock: { now: state.now, mode: state.mode, speed: state.speed },
    random: Object.fromEntries(randomStreams.map((stream) => [stream, random[stream].save()])),
    accounts: [...store.accounts.values()].map((account) => ({
      apiKey: account.apiKey,
      signingSecret: account.signingSecret,
      scopes: [...account.scopes],
      live: walletSnapshot(account, 'live'),
      sandbox: walletSnapshot(account, 'sandbox'),
    })),
    messages: environments.flatMap((environment) => [...store.allMessages(environment)]),
    replies: environments.flatMap((environment) => store.replies[environment]),
  });
}

/** Replaces the whole state with a snapshot; a snapshot that does not parse changes nothing. */
export function importSnapshot(core: Core, input: unknown): void {
  const parsed = snapshotSchema.safeParse(input);
  if (!parsed.success) throw new ApiError('CONTROL_INVALID_REQUEST', `Invalid snapshot: ${describeIssues(parsed.error, 'snapshot')}.`);
  const snapshot = structuredClone(parsed.data);
  const keys = new Set(snapshot.accounts.map((account) => account.apiKey));
  const orphan = [...snapshot.messages, ...snapshot.replies].find((message) => !keys.has(message.apiKey));
  if (orphan)
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `Invalid snapshot: message ${orphan.id} belongs to account "${orphan.apiKey}", which the snapshot does not define.`,
    );
  const { store, clock, lifecycle, random } = core;
  store.clear();
  lifecycle.clear();
  core.webhooks.reset();
  clock.restart(snapshot.clock.now);
  clock.configure({ mode: snapshot.clock.mode, speed: snapshot.clock.speed });
  for (const stream of randomStreams) {
    const state = snapshot.random[stream];
    if (state) random[stream].restore(state);
  }
  for (const saved of snapshot.accounts) {
    store.addAccount({
      apiKey: saved.apiKey,
      signingSecret: saved.signingSecret,
      scopes: saved.scopes,
      balance: saved.live.balance,
      sandboxBalance: saved.sandbox.balance,
      webhookUrl: saved.live.webhookUrl,
      sandboxWebhookUrl: saved.sandbox.webhookUrl,
      optOuts: saved.live.optOuts,
      sandboxOptOuts: saved.sandbox.optOuts,
    });
  }
  for (const message of snapshot.messages) {
    const account = store.accounts.get(message.apiKey) as Account;
    store.addMessage(account, message);
    lifecycle.resume(account, message);
  }
  for (const reply of snapshot.replies) store.replies[reply.environment].push(reply);
}

function walletSnapshot(account: Account, environment: Environment) {
  const wallet = account.environments[environment];
  return { balance: wallet.balance, webhookUrl: wallet.webhookUrl, optOuts: [...wallet.optOuts] };
}
