/**
 * The MCP tools of the control operations: one per route of the operations table (the source the kit contract is
 * written from), named after it (`messages.list` → `messages_list`), described by its summary, its input schema the
 * operation's own (path parameters, then the body or query fields, flattened), built once per process.
 */

import type { z } from 'zod';
import { fromZod, type Schema } from '../control/answerSchemas.js';
import type { ControlRoute, OperationId } from '../control/operation.js';
import { isRoute, operationList } from '../control/operationList.js';
import { pageFields } from '../domain/list.js';
import { type WorldScope, scopeOf } from './worldScopes.js';

export interface ContractTool {
  name: string;
  id: OperationId;
  op: ControlRoute;
  scope: WorldScope;
  description: string;
  inputSchema: Schema & { type: 'object' };
  /** The tool's flat arguments as the handle's arguments, in the operation's order. */
  handleArgs(args: Readonly<Record<string, unknown>>): unknown[];
}

/** `messages.forceStatus` → `messages_forceStatus`: a tool name as MCP allows it, reversible to the operation. */
export function toolName(id: OperationId): string {
  return id.replace('.', '_');
}

function objectSchema(op: ControlRoute): Schema | undefined {
  if (op.input === undefined) return undefined;
  const input = op.pages ? (op.input as z.ZodObject).extend(pageFields) : op.input;
  return fromZod(input, 'input');
}

function contractTool(id: OperationId, op: ControlRoute): ContractTool {
  const scope = scopeOf(id);
  // A world session fills these in itself, so an agent need not (and may not name another).
  const filled = scope === 'ownAccount' ? 'key' : scope === 'ownClock' ? 'id' : undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const input = objectSchema(op);
  const fields = (input?.properties ?? {}) as Record<string, unknown>;
  for (const spec of op.args) {
    if (spec.in === 'path') {
      properties[spec.name] = { type: 'string' };
      if (spec.name !== filled) required.push(spec.name);
    } else if (spec.in === 'query' && spec.name !== undefined) properties[spec.name] = { type: 'string' };
    else if (spec.in === 'text')
      properties.scenario = { description: 'The scenario: an object, or its YAML or JSON text.' };
    else if (input?.type === 'object') {
      Object.assign(properties, fields);
      required.push(...((input.required as string[] | undefined) ?? []));
    } else properties.body = input ?? {};
  }
  return {
    name: toolName(id),
    id,
    op,
    scope,
    description: `${op.summary}${scopeNote[scope]}`,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    handleArgs(args) {
      return op.args.map((spec) => {
        if (spec.in === 'path') return args[spec.name];
        if (spec.in === 'query' && spec.name !== undefined) return args[spec.name];
        if (spec.in === 'text') return args.scenario;
        if (input?.type !== 'object') return args.body;
        const own = Object.fromEntries(Object.entries(args).filter(([name]) => !pathOrScalar(op, name)));
        return spec.in === 'query' ? stringFields(own) : own;
      });
    },
  };
}

function pathOrScalar(op: ControlRoute, name: string): boolean {
  return op.args.some((spec) => (spec.in === 'path' || spec.in === 'query') && spec.name === name);
}

/** A query travels as text: a number or a boolean an agent passes is written as the URL would carry it. */
function stringFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      value === undefined || value === null || typeof value === 'object' ? value : String(value),
    ]),
  );
}

/** What a session's world does to the tool, said once at the end of its description. */
const scopeNote: Record<WorldScope, string> = {
  free: '',
  account: " In an MCP session, limited to the session's world: its account is filled in.",
  ownAccount: " In an MCP session, `key` is the session's world's account (leave it out).",
  ownMessage: " In an MCP session, only a message of the session's world.",
  ownWebhook: " In an MCP session, only a webhook event of the session's world.",
  ownClock: " In an MCP session, `id` is the session's world's clock (leave it out).",
  worldClock: " In an MCP session, this is the session's world's own clock.",
  ownReceiver: " In an MCP session, only the receiver the world's account names as its webhook URL.",
  outside:
    ' Reaches every world: refused in an MCP session (MCP_OUTSIDE_WORLD); use the control API or the CLI for the whole emulator.',
};

let tools: ContractTool[] | undefined;

/** Every route operation as a tool, in table order (built on first use). */
export function contractTools(): readonly ContractTool[] {
  tools ??= operationList().flatMap(([id, op]) => (isRoute(op) ? [contractTool(id, op)] : []));
  return tools;
}
