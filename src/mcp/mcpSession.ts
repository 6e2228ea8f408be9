/**
 * One MCP session: its own world (a test clock with an account on it, opened on first use), and every tool call
 * confined to it by the operation's world scope. Two sessions on one emulator never see or move each other's state.
 */

import { type WorldView } from '../control/views.js';
import type { ControlRoute } from '../control/operation.js';
import { controlRouteOf } from '../control/operationList.js';
import { maskUrlCredentials, maskUrlsInText } from '../domain/credentials.js';
import { ApiError } from '../domain/errors.js';
import type { MessageView } from '../domain/messageView.js';
import type { WebhookEvent } from '../domain/webhookEvent.js';
import type { AccountView } from '../engine/inspection.js';
import { stateUrl } from '../webhooks/receiverState.js';
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
  /** Waits for the app (wall time) this session holds now. */
  #waits = 0;

  constructor(readonly backend: McpBackend) {}

  /**
   * Runs a wait for the app, at most `limit` at once per session: each polls the world until it answers, so an agent
   * firing hundreds at once would hold the emulator's whole CPU for their length.
   */
  async waiting<T>(limit: number, wait: () => Promise<T>): Promise<T> {
    if (this.#waits >= limit)
      throw new ApiError(
        'MCP_WAIT_LIMIT',
        `This session already holds ${this.#waits} waits, as many as one session may at once.`,
      );
    this.#waits += 1;
    try {
      return await wait();
    } finally {
      this.#waits -= 1;
    }
  }

  /** The session's world, opened with defaults on first use; refused once it was deleted from outside the session. */
  async world(): Promise<WorldView> {
    const held = this.#world;
    if (held !== undefined && (await this.#gone(held)))
      // Not silently replaced: the agent has configured the app under test with the old world.
      throw new ApiError(
        'CONTROL_NOT_FOUND',
        "This session's world was deleted from outside the session (a reset or a restore of the whole emulator, or a delete of its account or clock): open_world opens a new one (give the app under test the API key it answers).",
      );
    return (this.#world ??= this.#create({}));
  }

  /** Opens the session's world with these settings; a session holds one world, so a second open answers the first. */
  async open(request: Record<string, unknown>): Promise<WorldView> {
    const held = this.#world;
    if (held !== undefined && (await this.#gone(held)) && this.#world === held) this.#world = undefined;
    return (this.#world ??= this.#create(request));
  }

  /** Whether the world held was deleted from outside the session (a world that was never made is not). */
  async #gone(held: Promise<WorldView>): Promise<boolean> {
    const world = await held.catch(() => undefined);
    if (world === undefined) return false;
    return this.backend.call(route.accountsGet, [world.account.apiKey]).then(
      () => false,
      (error: unknown) => (error as { code?: unknown }).code === 'CONTROL_NOT_FOUND',
    );
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

/** What a state template is filled with to tell its origin (the handler checks the same way). */
const sampleSubject = { id: 'id', clientReference: 'reference' };

/** A URL's origin, or undefined when it is none (the operation's own check then refuses a state that is no URL). */
function originOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).origin : undefined;
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
    // The state hook is read from the receiver's own origin: another would let an agent make the emulator read any host.
    const state = typeof call.args.state === 'string' ? call.args.state : undefined;
    const stateOrigin = state === undefined ? undefined : originOf(stateUrl(state, sampleSubject));
    if (state !== undefined && stateOrigin !== undefined && stateOrigin !== originOf(receiver))
      throw outsideWorld(
        `The state hook "${maskUrlsInText(state)}"`,
        "the receiver check reads state only from the receiver's own origin (the world's webhook URL's scheme, host and port).",
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
