/**
 * The MCP endpoint, `/_emulator/mcp` (streamable HTTP), behind the control API's own Origin and control-token checks.
 * The MCP server's code (and the SDK) loads on the first request, so a start that never serves MCP does not pay for it.
 */

import { Hono } from 'hono';
import type { McpBackend } from '../../mcp/mcpBackend.js';
import type { McpSessions } from '../../mcp/mcpSessions.js';
import { requireControlToken } from '../middleware/controlToken.js';
import { requireSameOrigin } from '../middleware/sameOrigin.js';

export interface McpRouteDeps {
  backend: McpBackend;
  controlToken: string | undefined;
  publicOrigin: string | undefined;
  sessionLimit: number;
  idleMs: number;
  /** The emulator's wall timers, which end idle sessions (and stop when it closes). */
  after: (ms: number, run: () => void) => () => void;
}

export function mcpRoutes({ backend, controlToken, publicOrigin, sessionLimit, idleMs, after }: McpRouteDeps): Hono {
  let sessions: Promise<McpSessions> | undefined;
  const routes = new Hono();
  routes.all('/', requireSameOrigin(publicOrigin), requireControlToken(controlToken), async (c) => {
    // A person (or a link check) opening the address gets told what it is; an MCP client asks for a stream or sends a session.
    const isClient =
      c.req.method !== 'GET' ||
      c.req.header('mcp-session-id') !== undefined ||
      (c.req.header('accept') ?? '').includes('text/event-stream');
    if (!isClient)
      return c.json({
        endpoint: 'MCP over streamable HTTP: point an MCP client here (each session gets its own world).',
        docs: '/_emulator/docs/mcp',
      });
    sessions ??= import('../../mcp/mcpSessions.js').then(
      ({ McpSessions }) => new McpSessions(backend, sessionLimit, idleMs, Date.now, after),
    );
    return (await sessions).handle(c.req.raw);
  });
  return routes;
}
