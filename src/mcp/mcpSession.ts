/**
 * One MCP session: its own world (a test clock with an account on it, opened on first use), and every tool call
 * confined to it by the operation's world scope. Two sessions on one emulator never see or move each other's state.
 */

import { type WorldView } from '../control/views.js';
import type { ControlRoute } from '../control/operation.js';
import { controlRouteOf } from '../control/operationList.js';
import { maskUrlCredentials } from '../domain/credentials.js';
import type { MessageView } from '../domain/messageView.js';
import type { WebhookEvent } from '../domain/webhookEvent.js';
import type { AccountView } from '../engine/inspection.js';
import type { ContractTool } from './contractTools.js';
import type { McpBackend } from './mcpBackend.js';
import { type WorldScope, outsideWorld } from './worldScopes.js';

const route = {
  worldsCreate: controlRouteOf('worlds.create'),
  clocksGet: controlRouteOf('clocks.get'),
  clocksMove: controlRouteOf('clocks.move'),
  clocksDelete: controlRouteOf('clocks.delete'),
  accountsGet: controlRouteOf('accounts.get'),
  messagesGet: controlRouteOf('messages.get'),
  webhooksGet: controlRouteOf('webhooks.get'),
};

export class McpSession {
  #world: Promise<WorldView> | undefined;

  constructor(readonly backend: McpBackend) {}

  /** The session's world, opened with defaults on first use. */
  world(): Promise<WorldView> {
    return (this.#world ??= this.#create({}));
  }

  /** Opens the session's world with these settings; a session holds one world, so a second open answers the first. */
  open(request: Record<string, unknown>): Promise<WorldView> {
    return (this.#world ??= this.#create(request));
  }

  #create(request: Record<string, unknown>): Promise<WorldView> {
    const created = this.backend.call(route.worldsCreate, [request]) as Promise<WorldView>;
    // A refused world (bad settings) leaves the session without one, so the next call may try again.
    created.catch(() => (this.#world = undefined));
    return created;
  }

  /** Deletes the world (its clock, account, messages and webhooks); the next call opens a fresh one. */
  async close(): Promise<void> {
    const world = this.#world;
    this.#world = undefined;
    if (world === undefined) return;
    const opened = await world.catch(() => undefined);
    if (opened !== undefined) await this.backend.call(route.clocksDelete, [opened.clock.id]).catch(() => undefined);
  }

  /** Runs a control operation's tool inside the world: its account, clock and ids confined, or refused. */
  async callContract(tool: ContractTool, args: Record<string, unknown>): Promise<unknown> {
    const world = await this.world();
    const confined = await confiners[tool.scope]({
      session: this,
      tool,
      args,
      key: world.account.apiKey,
      clock: world.clock.id,
    });
    return confined ?? this.#call(tool.op, tool.handleArgs(args));
  }

  #call(op: ControlRoute, args: readonly unknown[]): Promise<unknown> {
    return this.backend.call(op, args);
  }
}

interface Call {
  session: McpSession;
  tool: ContractTool;
  /** The tool's arguments, which a confiner fills in with the world's own account or clock. */
  args: Record<string, unknown>;
  key: string;
  clock: string;
}

/** Fills `name` in with the world's own value, or refuses another one. */
function own({ args }: Call, name: string, value: string, what: string): void {
  if (args[name] !== undefined && args[name] !== value)
    throw outsideWorld(`${what} "${String(args[name])}"`, `leave \`${name}\` out: the session's world is ${value}.`);
  args[name] = value;
}

/**
 * What each world scope does before a call: fills in or checks the arguments (answering undefined, so the operation
 * runs as asked), answers the call itself (the world's clock in place of the emulator's), or refuses it.
 */
const confiners: Record<WorldScope, (call: Call) => Promise<unknown>> = {
  free: async () => undefined,
  account: async (call) => own(call, 'account', call.key, 'The account'),
  ownAccount: async (call) => own(call, 'key', call.key, 'The account'),
  ownClock: async (call) => own(call, 'id', call.clock, 'The clock'),
  worldClock: ({ session, tool, args, clock }) =>
    session.backend.call(tool.op === controlRouteOf('clock.state') ? route.clocksGet : route.clocksMove, [
      clock,
      ...tool.handleArgs(args),
    ]),
  ownMessage: async ({ session, args, key }) => {
    const message = (await session.backend.call(route.messagesGet, [String(args.id)]).catch(() => undefined)) as
      MessageView | undefined;
    if (message?.account !== key)
      throw outsideWorld(`Message "${String(args.id)}"`, "only this world's messages can be read or moved here.");
    return undefined;
  },
  ownWebhook: async ({ session, args, key }) => {
    const event = (await session.backend.call(route.webhooksGet, [String(args.id)]).catch(() => undefined)) as
      WebhookEvent | undefined;
    if (event?.account !== key)
      throw outsideWorld(`Webhook event "${String(args.id)}"`, "only this world's webhook events are reachable here.");
    return undefined;
  },
  ownReceiver: async (call) => {
    own(call, 'account', call.key, 'The account');
    const account = (await call.session.backend.call(route.accountsGet, [call.key])) as AccountView;
    const named = [account.live.webhookUrl, account.sandbox.webhookUrl];
    const receiver = call.args.receiver;
    if (typeof receiver !== 'string' || !named.includes(maskUrlCredentials(receiver)))
      throw outsideWorld(
        `The receiver "${maskUrlCredentials(String(receiver))}"`,
        "the receiver check posts only to the webhook URL the world's account names: set it with accounts_update first.",
      );
    return undefined;
  },
  outside: async ({ tool }) => {
    throw outsideWorld(
      `\`${tool.name}\``,
      'use the world-shaped tools (open_world, move_clock, messages_list, …); the whole emulator is driven from the control API or the CLI.',
    );
  },
};
