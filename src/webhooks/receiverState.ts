/**
 * check-receiver's state hook: after a delivery sequence, reads what the receiver holds for the message from a URL
 * template (`http://127.0.0.1:4000/sms/{id}`), because an HTTP answer cannot show a duplicate processed twice or an
 * older status written over a newer one. The hook answers `{"status": "delivered", "notifications": 2}` (docs/webhooks.md).
 */

import type { Agent } from 'undici';
import { z } from 'zod';
import { maskUrlsInText } from '../domain/credentials.js';
import type { OwnAddresses } from '../domain/ownAddress.js';
import { guardedConnector } from './ownGuard.js';
import { isHttp } from './transport.js';

/** What a receiver says it holds for one message: the status it records, and how many notifications it acted on. */
export const heldStateSchema = z.strictObject({
  status: z.string(),
  /** Notifications acted on for the message, a re-sent one (same event id) counted once; absent when the hook does not count. */
  notifications: z.int().optional(),
});
export type HeldState = z.output<typeof heldStateSchema>;

/** The hook's answer for one message, or why there is none. */
export type StateAnswer = { held: HeldState } | { error: string };

/** What a template may name of the message a sequence was about. */
export interface StateSubject {
  id: string;
  clientReference: string;
}

const placeholders = { '{id}': 'id', '{clientReference}': 'clientReference' } as const;

/** How much of the hook's answer is read: a state is a few fields, and a hook that answers megabytes must not cost them. */
const maxAnswerBytes = 64 * 1024;

/** The template filled in for one message (each value URL-encoded). */
export function stateUrl(template: string, subject: StateSubject): string {
  let url = template;
  for (const [placeholder, field] of Object.entries(placeholders))
    url = url.replaceAll(placeholder, encodeURIComponent(subject[field]));
  return url;
}

/** Checks a template: an http(s) URL once filled in, naming the message by `{id}` or `{clientReference}`. */
export function checkStateTemplate(template: string): void {
  const shown = maskUrlsInText(template);
  if (!Object.keys(placeholders).some((placeholder) => template.includes(placeholder)))
    throw new RangeError(
      `state "${shown}" names no message: put {id} (or {clientReference}) where the message goes, such as http://127.0.0.1:4000/sms/{id}`,
    );
  let target: URL;
  try {
    target = new URL(stateUrl(template, { id: 'id', clientReference: 'reference' }));
  } catch {
    throw new RangeError(`state "${shown}" is not a URL template, such as http://127.0.0.1:4000/sms/{id}`);
  }
  if (!isHttp(target)) throw new RangeError(`state "${shown}": a state hook is http:// or https://`);
}

/** The hook's JSON as a held state, or what is wrong with it. */
export function heldState(text: string): StateAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: `answered 200 with something other than JSON (${JSON.stringify(text.slice(0, 60))})` };
  }
  const shape = 'a state is {"status": "<the status it holds>", "notifications"?: <how many it acted on>}';
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: `answered ${JSON.stringify(value).slice(0, 60)}: ${shape}` };
  const { status, notifications } = value as Record<string, unknown>;
  if (typeof status !== 'string') return { error: `answered no "status" text: ${shape}` };
  if (notifications === undefined) return { held: { status } };
  if (typeof notifications !== 'number' || !Number.isInteger(notifications) || notifications < 0)
    return { error: `answered "notifications": ${JSON.stringify(notifications)}, not a whole number: ${shape}` };
  return { held: { status, notifications } };
}

/** Reads the hook for one message after another through one keep-alive pool, each read bounded by the timeout. */
export class StateReader {
  private agent: Promise<Agent> | undefined;

  constructor(
    private readonly template: string,
    private readonly timeoutMs: number,
    /** This emulator's own addresses, when it runs the check: a read that reaches one is not made. */
    private readonly own?: OwnAddresses,
  ) {}

  async read(subject: StateSubject): Promise<StateAnswer> {
    const target = new URL(stateUrl(this.template, subject));
    const headers: Record<string, string> = { accept: 'application/json' };
    // Credentials in the URL become Basic auth, as the webhook posts do with them.
    if (target.username !== '' || target.password !== '')
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`;
    const agent = await (this.agent ??= import('undici').then(
      ({ Agent, buildConnector }) =>
        new Agent(this.own === undefined ? {} : { connect: guardedConnector(buildConnector({}), this.own) }),
    ));
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    try {
      const answer = await agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        headers,
        signal: abort.signal,
      });
      let text = '';
      let read = 0;
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        read += chunk.length;
        if (read > maxAnswerBytes) {
          abort.abort();
          return { error: `answered ${answer.statusCode} with more than ${maxAnswerBytes} bytes` };
        }
        text += chunk.toString('utf8');
      }
      if (answer.statusCode === 404) return { error: 'answered 404: the receiver holds nothing for it' };
      if (answer.statusCode !== 200) return { error: `answered ${answer.statusCode}` };
      return heldState(text);
    } catch (error) {
      if (abort.signal.aborted) return { error: `no answer within ${this.timeoutMs} ms` };
      const { code, message } = error as Error & { code?: string };
      return { error: maskUrlsInText(code === undefined ? message : `${code}: ${message}`) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the pool's connections (a run must not hold the process open). */
  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    if (agent !== undefined) await (await agent).close();
  }
}
