/** createClient: a typed client of the SMS API (the emulator's or the real service's), with signing and one error class. */

import { type Environment, apiPrefixes, defaultEnvironment } from '../domain/environment.js';
import type { MessageStatus } from '../domain/message.js';
import { signRequest } from '../domain/signing.js';
import { formatSchedule } from './scheduleTime.js';
import { SmsApiError } from './smsApiError.js';
import type { Balance, DeleteResult, ErrorBody, MessageList, SmsMessage, SmsReply } from './types.js';

export interface ClientOptions {
  /** The service's base address, e.g. `http://127.0.0.1:2727` (the API lives at `<baseUrl>/v1`). */
  baseUrl: string;
  /** HTTP Basic username (`pk_…`); the password is blank. */
  apiKey: string;
  /** Signs sends and schedules (and edits). Never sent. */
  signingSecret: string;
  /**
   * `sandbox` calls `<baseUrl>/sandbox/v1`, where the emulator serves its sandbox. Against the real
   * service, give its sandbox address as `baseUrl` instead and leave this `live` (the default).
   */
  environment?: Environment;
  /** Offset that `Date` schedules are written in; default `+02:00`, the service's zone. */
  timeZoneOffset?: string;
  /** Headers added to every request (none by default, so the client talks to the real service unchanged). */
  headers?: Record<string, string>;
  /** The fetch to use: default the global one; `emulator.fetch` talks to an embedded emulator without a socket. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Per-call extras: headers (e.g. `X-Emulator-Outcome`) and an abort signal. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** What a send carries: one number or many, the text, and an optional reference returned in webhooks. */
export interface SendInput {
  recipient: string | readonly string[];
  message: string;
  client_reference?: string;
}

/** A send for later: `schedule` is a `Date` or text, inside the API's schedule window (see DATE_TIME_INVALID in docs/errors.md). */
export interface ScheduleInput extends SendInput {
  schedule: Date | string;
}

/** Any of the fields of a scheduled message, changed singly or together. */
export type EditInput = Partial<ScheduleInput>;

/** Filters and paging of the message list. */
export interface ListQuery {
  /** A number or part of one. */
  recipient?: string;
  status?: MessageStatus;
  /** Text the message contains. */
  search?: string;
  page?: number;
  /** Page size, at most 100 (default 10). */
  limit?: number;
}

/** The typed API client; every failure throws {@link SmsApiError}. */
export interface SmsClient {
  /** Sends now: the answer has status `pending` and the credits charged. */
  send(input: SendInput, options?: CallOptions): Promise<SmsMessage>;
  /** Schedules for later: status `scheduled`, nothing charged until it goes out. */
  schedule(input: ScheduleInput, options?: CallOptions): Promise<SmsMessage>;
  /** Changes a scheduled message. */
  edit(id: string, changes: EditInput, options?: CallOptions): Promise<SmsMessage>;
  /** Deletes a scheduled message. */
  delete(id: string, options?: CallOptions): Promise<DeleteResult>;
  /** One message (or reply) by id. */
  get(id: string, options?: CallOptions): Promise<SmsMessage | SmsReply>;
  /** One page of messages, newest first; no messages (`NO_SMS_MESSAGES`) is an empty page, not an error. */
  list(query?: ListQuery, options?: CallOptions): Promise<MessageList>;
  /** Every message matching the query, page after page (100 a page unless `limit` says otherwise). */
  listAll(query?: Omit<ListQuery, 'page'>, options?: CallOptions): AsyncIterable<SmsMessage>;
  /**
   * The newest message the account sent with this `client_reference`, or undefined: how a retrying client finds out
   * whether an earlier send got through before sending again. The API's list cannot filter by reference, so this walks
   * its pages (narrowed to `recipient` when given, which the list does filter by).
   */
  findByClientReference(
    clientReference: string,
    query?: Pick<ListQuery, 'recipient'>,
    options?: CallOptions,
  ): Promise<SmsMessage | undefined>;
  /** The account's SMS credits. */
  balance(options?: CallOptions): Promise<Balance>;
}

/**
 * Creates a client of the SMS API.
 *
 * @example
 * const sms = createClient({ baseUrl: emulator.urls.live, apiKey: 'pk_test_sms_emulator', signingSecret: 'sk_test_sms_emulator' });
 * const sent = await sms.send({ recipient: ['27831234567'], message: 'Your appointment is at 10:00' });
 */
export function createClient(options: ClientOptions): SmsClient {
  const root = `${options.baseUrl.replace(/\/+$/, '')}${apiPrefixes[options.environment ?? defaultEnvironment]}/messages`;
  const authorization = `Basic ${btoa(`${options.apiKey}:`)}`;
  const offset = options.timeZoneOffset ?? '+02:00';

  const call = async <T>(
    method: string,
    path: string,
    body: Record<string, unknown> | undefined,
    extra: CallOptions = {},
  ): Promise<T> => {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.headers,
      ...extra.headers,
      authorization,
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers.signature = signRequest(body, options.signingSecret);
    }
    const request = new Request(root + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: extra.signal,
    });
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(request);
    } catch (error) {
      throw new SmsApiError(
        'NETWORK_ERROR',
        0,
        `${method} ${request.url} got no answer: ${(error as Error).message}`,
        '',
        { cause: error },
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const error = errorBody(parsed);
    // Every answer of the API is a JSON object; anything else (a proxy's sign-in page, an empty body) is not one even with 200.
    if (response.ok && !error && typeof parsed === 'object' && parsed !== null) return parsed as T;
    const answered = { headers: response.headers };
    if (error)
      throw new SmsApiError(error.message, response.status, error.description, error.documentation_url, answered);
    throw new SmsApiError(
      'UNEXPECTED_RESPONSE',
      response.status,
      `${method} ${request.url} answered ${response.status}: ${text.slice(0, 200)}`,
      '',
      answered,
    );
  };

  const fields = (input: EditInput): Record<string, unknown> => {
    const body: Record<string, unknown> = {};
    if (input.recipient !== undefined)
      body.recipient = typeof input.recipient === 'string' ? [input.recipient] : [...input.recipient];
    if (input.message !== undefined) body.message = input.message;
    if (input.client_reference !== undefined) body.client_reference = input.client_reference;
    if (input.schedule !== undefined) body.schedule = formatSchedule(input.schedule, offset);
    return body;
  };

  const list = async (query: ListQuery = {}, extra?: CallOptions): Promise<MessageList> => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const search = params.size === 0 ? '' : `?${params.toString()}`;
    try {
      return await call<MessageList>('GET', search, undefined, extra);
    } catch (error) {
      if (!(error instanceof SmsApiError) || error.code !== 'NO_SMS_MESSAGES') throw error;
      // Not strictly an error, the spec says: an empty page.
      return {
        list: [],
        page: query.page ?? 1,
        limit: query.limit ?? 10,
        total_pages: 0,
        total_items: 0,
        _links: {},
        documentation_url: error.documentationUrl,
      };
    }
  };

  const listAll: SmsClient['listAll'] = async function* (query = {}, extra) {
    for (let page = 1; ; page++) {
      const result = await list({ limit: 100, ...query, page }, extra);
      yield* result.list;
      if (page >= result.total_pages) return;
    }
  };

  return {
    send: (input, extra) => call('POST', '', fields(input), extra),
    schedule: (input, extra) => call('POST', '', fields(input), extra),
    edit: async (id, changes, extra) => call('PATCH', messagePath(id, 'edit'), fields(changes), extra),
    delete: async (id, extra) => call('DELETE', messagePath(id, 'delete'), undefined, extra),
    get: async (id, extra) => call('GET', messagePath(id, 'get'), undefined, extra),
    list,
    listAll,
    async findByClientReference(clientReference, query = {}, extra) {
      for await (const message of listAll(query, extra))
        if (message.client_reference === clientReference) return message;
      return undefined;
    },
    balance: (extra) => call('GET', '/balance', undefined, extra),
  };
}

/**
 * The path of one message, its id encoded. An id that cannot name a message is refused before any
 * request: a blank one would ask for the list, `balance` for the balance, `.` and `..` for a parent path.
 */
function messagePath(id: string, operation: string): string {
  if (typeof id !== 'string' || id.trim() === '' || id === 'balance' || id === '.' || id === '..') {
    throw new SmsApiError(
      'INVALID_MESSAGE_ID',
      0,
      `${operation} needs the id of a message (as a send answered it); got ${JSON.stringify(id)}.`,
    );
  }
  return `/${encodeURIComponent(id)}`;
}

/** The error object of an answer, bare or wrapped in `{"error": …}`; undefined when it is not one. */
function errorBody(parsed: unknown): ErrorBody | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const candidate =
    'error' in parsed && typeof parsed.error === 'object' && parsed.error !== null ? parsed.error : parsed;
  const { message, description, documentation_url } = candidate as Partial<ErrorBody>;
  if (typeof message !== 'string' || typeof description !== 'string' || 'list' in parsed || 'id' in parsed)
    return undefined;
  return { message, description, documentation_url: typeof documentation_url === 'string' ? documentation_url : '' };
}
