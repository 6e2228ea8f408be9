/** connect: the control handle of a running emulator (started by `startEmulator`, `npx` or anything else), over HTTP. */

import type { ControlTransport } from '../control/call.js';
import type { ControlHandle } from '../control/handle.js';
import type { WaitView } from '../control/views.js';
import { remoteHandle } from '../control/remoteHandle.js';
import { environmentPaths } from '../domain/environment.js';
import { ApiError, type ErrorCode, errorCatalogue } from '../domain/errors.js';
import type { EmulatorUrls, ReportOptions } from '../emulator.js';
import type { TimelineReport } from '../ui/timelineReport.js';
import type { MessageWait } from '../control/waitFor.js';
import { keepAliveHttp } from './keepAliveHttp.js';

export interface ConnectOptions {
  /** The emulator's `--control-token`, when it has one. */
  controlToken?: string;
  /** The fetch to use (default: connections kept alive through `node:http`, which cost less a call than the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The same control operations as `createEmulator()`'s handle, each answering a promise, plus waiting and the addresses. */
export interface RemoteEmulator extends ControlHandle<'remote'> {
  /** The addresses of the emulator this handle drives. */
  readonly urls: EmulatorUrls;
  /** Waits for a message to reach a status on the emulator's clock: `await emulator.waitFor(id).toReach('delivered')`. */
  waitFor(messageId: string): MessageWait;
  /** The timeline report of an account (the default one when none is named): the HTML page, or its data with `format: 'json'`. */
  report(options?: ReportOptions & { format?: 'html' }): Promise<string>;
  report(options: ReportOptions & { format: 'json' }): Promise<TimelineReport>;
}

/**
 * Connects to a running emulator's control API.
 *
 * @example
 * const emulator = connect('http://127.0.0.1:2727', { controlToken: process.env.SMS_CONTROL_TOKEN });
 * await emulator.clock.advance('5m');
 */
export function connect(url: string, options: ConnectOptions = {}): RemoteEmulator {
  const origin = new URL(url).origin;
  const transport = httpTransport(origin, options);
  const handle = remoteHandle(transport);
  const port = Number(new URL(origin).port || (origin.startsWith('https:') ? 443 : 80));
  const emulator: RemoteEmulator = {
    ...handle,
    urls: { origin, live: origin, sandbox: `${origin}${environmentPaths.sandbox}`, port },
    waitFor: (messageId) => remoteWait(handle, messageId),
    report: (async ({ account, format }: ReportOptions = {}) => {
      const query: Record<string, string> = { format: 'json' };
      if (account !== undefined) query.account = account;
      const data = (await transport('GET', '/report', query, undefined)) as TimelineReport;
      if (format === 'json') return data;
      // The page is rendered here from the same data the in-process report() renders, loaded only when asked for.
      const { reportPage } = await import('../ui/reportPage.js');
      return reportPage(data);
    }) as RemoteEmulator['report'],
  };
  return emulator;
}

/** Sends one control request to `<origin>/_emulator<path>`; an error answer throws the same `ApiError` the in-process handle throws. */
export function httpTransport(origin: string, options: ConnectOptions): ControlTransport {
  const given = options.fetch;
  const send: (
    target: URL,
    init: { method: string; headers: Record<string, string>; body?: string },
  ) => Promise<{ status: number; text: string }> =
    given === undefined
      ? (target, { method, headers, body }) =>
          keepAliveHttp(origin).request(method, target.pathname + target.search, headers, body)
      : async (target, init) => {
          const fetched = await given(new Request(target, init));
          return { status: fetched.status, text: await fetched.text() };
        };
  return async (method, path, query, body) => {
    const target = new URL(`${origin}/_emulator${path}`);
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.controlToken !== undefined) headers.authorization = `Bearer ${options.controlToken}`;
    if (body !== undefined) headers['content-type'] = typeof body === 'string' ? 'text/plain' : 'application/json';
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const where = `${target.origin}${target.pathname}`;
    let response: { status: number; text: string };
    try {
      response = await send(target, { method, headers, body: text });
    } catch (error) {
      throw new Error(
        `sms-emulator: no answer from ${where}: ${(error as Error).message} (is the emulator running there?)`,
        { cause: error },
      );
    }
    const answer = response.text;
    let parsed: unknown;
    try {
      parsed = answer === '' ? undefined : JSON.parse(answer);
    } catch {
      // Another server at that address (the app under test, a proxy page) answers HTML or text, never the control API's JSON.
      throw new Error(
        `sms-emulator: ${where} answered ${response.status} with something other than JSON (${answer.slice(0, 80)}): is this the emulator's address?`,
      );
    }
    if (response.status >= 200 && response.status < 300) return parsed;
    const error = (parsed as { error?: unknown })?.error ?? parsed;
    const { message, description } = (error ?? {}) as { message?: string; description?: string };
    const code = message !== undefined && message in errorCatalogue ? (message as ErrorCode) : 'INTERNAL_SERVER_ERROR';
    throw new ApiError(
      code,
      description ?? `${method} ${target.pathname} answered ${response.status}.`,
      {},
      response.status,
    );
  };
}

/**
 * `waitFor` over HTTP in one call (`POST /_emulator/messages/{id}/wait`): the emulator moves the message's clock itself,
 * so a wait costs one round trip, not one per step; a wait that ends otherwise fails with the in-process wait's words.
 */
export function remoteWait(
  handle: { readonly messages: Pick<ControlHandle<'remote'>['messages'], 'wait'> },
  messageId: string,
  onClock: (clock: WaitView['clock']) => void = () => {},
): MessageWait {
  return {
    async toReach(status, options = {}) {
      try {
        const { message, clock } = await handle.messages.wait(messageId, { status, within: options.within });
        onClock(clock);
        return message;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'CONTROL_WAIT_FAILED')
          throw new Error(`sms-emulator: ${error.description}`, { cause: error });
        throw error;
      }
    },
  };
}
