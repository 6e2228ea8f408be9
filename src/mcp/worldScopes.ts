/**
 * How each control operation is confined to one MCP session's world (its account and its test clock), so two agents on
 * one emulator never read or move each other's messages, balances, clocks or webhooks. The table is complete by type:
 * a new operation does not compile until it says how a world confines it.
 */

import { ApiError } from '../domain/errors.js';
import type { OperationId } from '../control/operation.js';

export type WorldScope =
  /** Reads or computes nothing of any world (health, limits, the cost of a text). */
  | 'free'
  /** Its `account` filter or target is the world's account, whatever the agent passed. */
  | 'account'
  /** Its `{key}` is the world's account (filled in when the agent leaves it out). */
  | 'ownAccount'
  /** Its `{id}` names a message of the world's account. */
  | 'ownMessage'
  /** Its `{id}` names a webhook event of the world's account. */
  | 'ownWebhook'
  /** Its `{id}` is the world's test clock (filled in when the agent leaves it out). */
  | 'ownClock'
  /** The emulator's own clock: a world session moves its test clock instead (clocks.get / clocks.move). */
  | 'worldClock'
  /** Posts to a receiver: only the one the world's account names as its webhook URL. */
  | 'ownReceiver'
  /** Reaches every world (reset all, snapshot, the global scenario, other accounts): refused in a world session. */
  | 'outside';

/** Every route operation's scope (a shortcut takes its route's); the server refuses to start when one is missing. */
export const worldScopes: Partial<Record<OperationId, WorldScope>> = {
  health: 'free',
  limits: 'free',
  'clock.state': 'worldClock',
  'clock.move': 'worldClock',
  'clocks.list': 'outside',
  'clocks.get': 'ownClock',
  'clocks.create': 'outside',
  'clocks.move': 'ownClock',
  'clocks.delete': 'outside',
  'worlds.create': 'outside',
  'accounts.list': 'outside',
  'accounts.get': 'ownAccount',
  'accounts.create': 'outside',
  'accounts.update': 'ownAccount',
  'accounts.delete': 'outside',
  'accounts.getScenario': 'ownAccount',
  'accounts.setScenario': 'ownAccount',
  'accounts.useBundledScenario': 'ownAccount',
  'accounts.clearScenario': 'ownAccount',
  'accounts.spend': 'ownAccount',
  'messages.list': 'account',
  'messages.get': 'ownMessage',
  'messages.forceStatus': 'ownMessage',
  'messages.wait': 'ownMessage',
  'replies.inject': 'ownMessage',
  'replies.list': 'account',
  'webhooks.list': 'account',
  'webhooks.get': 'ownWebhook',
  'webhooks.redeliver': 'ownWebhook',
  'webhooks.settled': 'account',
  'webhooks.chaos': 'outside',
  'webhooks.setChaos': 'outside',
  receiverCheck: 'ownReceiver',
  'scenario.get': 'outside',
  'scenario.set': 'outside',
  'scenario.bundled': 'free',
  'scenario.useBundled': 'outside',
  'optOuts.list': 'account',
  'optOuts.add': 'account',
  'optOuts.remove': 'account',
  'requests.find': 'account',
  'requests.count': 'account',
  sign: 'account',
  cost: 'free',
  reset: 'account',
  snapshot: 'outside',
  restore: 'outside',
};

/** What an operation's scope says for one id: its scope, or a refusal naming the world-shaped tool to use instead. */
export function scopeOf(id: OperationId): WorldScope {
  const scope = worldScopes[id];
  if (scope === undefined) throw new Error(`sms-emulator: the MCP world scopes name no operation ${id}`);
  return scope;
}

/** The refusal of an operation that reaches beyond the session's world. */
export function outsideWorld(what: string, instead: string): ApiError {
  return new ApiError('MCP_OUTSIDE_WORLD', `${what} reaches beyond this session's world; ${instead}`);
}
