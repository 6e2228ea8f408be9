/**
 * The MCP sessions of the streamable HTTP endpoint: each has its own world and its own server on the SDK's web-standard
 * transport; at most `limit` at once, and one unused for `idleMs` (wall time) ends with its world deleted, by a timer
 * (no other request need come).
 */

import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ApiError } from '../domain/errors.js';
import type { McpBackend } from './mcpBackend.js';
import { createMcpServer } from './mcpServer.js';
import { McpSession } from './mcpSession.js';
import { packageVersion } from './packageVersion.js';

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  session: McpSession;
  lastUsed: number;
}

export class McpSessions {
  readonly #sessions = new Map<string, Entry>();
  /** Sessions whose first request is still being answered (not yet in #sessions). */
  #opening = 0;
  /** Cancels the armed sweep of idle sessions, when one is armed. */
  #cancelSweep: (() => void) | undefined;

  constructor(
    private readonly backend: McpBackend,
    private readonly limit: number,
    private readonly idleMs: number,
    /** Wall time in milliseconds (a test steps its own). */
    private readonly now: () => number,
    /** Runs `run` after `ms` of wall time and answers its cancel (the emulator's timers, which its close ends). */
    private readonly after: (ms: number, run: () => void) => () => void,
  ) {}

  get size(): number {
    return this.#sessions.size;
  }

  /** Answers one request of the endpoint: a new session's `initialize`, or a request of a session it holds. */
  async handle(request: Request): Promise<Response> {
    const now = this.now();
    await this.#endIdle(now);
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const entry = this.#sessions.get(id);
      if (entry === undefined) return sessionNotFound();
      entry.lastUsed = now;
      return entry.transport.handleRequest(request);
    }
    // A session being opened holds its slot already: initializes arriving together cannot all pass the limit.
    if (this.#sessions.size + this.#opening >= this.limit)
      throw new ApiError(
        'MCP_SESSION_LIMIT',
        `The MCP endpoint holds ${this.#sessions.size + this.#opening} sessions, as many as mcpSessionLimit (${this.limit}) allows.`,
      );
    this.#opening += 1;
    let holding = true;
    // The slot passes to the session when it registers, or is given back when the request opened none.
    const release = (): void => {
      if (holding) this.#opening -= 1;
      holding = false;
    };
    try {
      return await this.#open(request, release);
    } finally {
      release();
    }
  }

  /** A first request without a session: an `initialize` opens one (its transport registers it), anything else is answered and let go. */
  async #open(request: Request, release: () => void): Promise<Response> {
    const session = new McpSession(this.backend);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => {
        release();
        this.#sessions.set(sessionId, { transport, session, lastUsed: this.now() });
        this.#armSweep();
      },
      onsessionclosed: (sessionId) => this.#end(sessionId),
    });
    await createMcpServer(session, packageVersion()).connect(transport);
    const response = await transport.handleRequest(request);
    // A first request that opened no session (not an initialize) leaves nothing behind.
    if (transport.sessionId === undefined) await transport.close();
    return response;
  }

  /** Ends every session and deletes their worlds (the emulator is closing). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.#end(id)));
  }

  /** Arms one timer for when the longest-unused session goes idle, so its world ends on time with no request to notice. */
  #armSweep(): void {
    if (this.#cancelSweep !== undefined || this.#sessions.size === 0) return;
    const oldest = Math.min(...[...this.#sessions.values()].map((entry) => entry.lastUsed));
    this.#cancelSweep = this.after(Math.max(0, oldest + this.idleMs + 1 - this.now()), () => {
      this.#cancelSweep = undefined;
      void this.#endIdle(this.now()).then(() => this.#armSweep());
    });
  }

  async #endIdle(now: number): Promise<void> {
    const idle = [...this.#sessions].filter(([, entry]) => now - entry.lastUsed > this.idleMs).map(([id]) => id);
    await Promise.all(idle.map((id) => this.#end(id)));
  }

  async #end(id: string): Promise<void> {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return;
    this.#sessions.delete(id);
    // No session left to end: nothing keeps a timer armed (or the process up) for them.
    if (this.#sessions.size === 0) {
      this.#cancelSweep?.();
      this.#cancelSweep = undefined;
    }
    await entry.session.close();
    await entry.transport.close().catch(() => undefined);
  }
}

/** What the MCP transport answers for a session it does not know: 404, so the client starts a new one. */
function sessionNotFound(): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found: it ended or was never opened; initialize a new one.' },
      id: null,
    },
    { status: 404 },
  );
}
