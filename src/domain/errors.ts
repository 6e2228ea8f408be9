/** The one catalogue of error codes: HTTP status, description, the fix, and whether the real API publishes it. */

import { maxRedeliveries } from './webhookEvent.js';
import { defaultOffsetWords, maximumLead, minimumLead, scheduleFormat, scheduleWindowWords } from './scheduleWindow.js';

export interface ErrorDefinition {
  status: number;
  /** What the response's `description` says by default. */
  description: string;
  /** What triggers it and how to fix it: shown on the documentation page. */
  fix: string;
  /** False for codes the emulator adds where the spec is silent (marked in docs/errors.md). */
  published: boolean;
}

const published = true;
const emulator = false;

/**
 * Every error code with its HTTP status, description and fix.
 * @example errorCatalogue.SIGNATURE_MISMATCH.status // 400
 */
export const errorCatalogue = {
  CONNECTION_INSECURE: {
    status: 403,
    published,
    description: 'The request was not made over HTTPS.',
    fix: 'Call the https:// address (or send X-Forwarded-Proto: https behind a TLS proxy).',
  },
  UNAUTHORIZED: {
    status: 401,
    published,
    description: 'No authentication was supplied.',
    fix: 'Send HTTP Basic authentication with the API key as the username and a blank password.',
  },
  INVALID_API_KEY: {
    status: 401,
    published,
    description: 'The API key does not exist (mistyped or old).',
    fix: 'Use a key of an existing account; the emulator prints the default key when it starts.',
  },
  INVALID_HTTP_REQUEST_METHOD: {
    status: 405,
    published,
    description: 'The HTTP method is not allowed on this endpoint.',
    fix: 'Use one of the methods listed in the Allow header (the balance endpoint accepts GET only).',
  },
  FORBIDDEN: {
    status: 403,
    published: emulator,
    description: 'The API key is not allowed to perform this operation.',
    fix: "Grant the operation in the account's scopes, or use a key that has it.",
  },
  SIGNATURE_MISSING: {
    status: 400,
    published,
    description: 'The Signature header is missing.',
    fix: 'Sign the request body with the signing secret (HMAC-SHA256 of the sorted, encoded fields) and send it in the Signature header.',
  },
  SIGNATURE_MISMATCH: {
    status: 400,
    published,
    description: 'The Signature header does not match the request.',
    fix: 'Build the string from every body field sorted by name, blanks dropped, arrays as name[]=value, values RFC 3986 encoded (%20 for a space), joined with &; send the lowercase hex HMAC-SHA256 keyed with the signing secret.',
  },
  RECIPIENT_MISSING_PARAMETER: {
    status: 400,
    published,
    description: 'The recipient parameter is missing.',
    fix: 'Send recipient: an array of MSISDNs such as ["27831234567"].',
  },
  RECIPIENT_EMPTY_PARAMETER: {
    status: 400,
    published,
    description: 'The recipient parameter is blank.',
    fix: 'Give at least one MSISDN in recipient.',
  },
  MESSAGE_MISSING_PARAMETER: {
    status: 400,
    published,
    description: 'The message parameter is missing.',
    fix: 'Send the text of the SMS in message.',
  },
  MESSAGE_EMPTY_PARAMETER: {
    status: 400,
    published,
    description: 'The message parameter is blank.',
    fix: 'Give the SMS text as a non-blank string.',
  },
  BATCH_LIMIT_EXCEEDED: {
    status: 400,
    published,
    description: 'Too many recipients in one request.',
    fix: 'Split the recipients over several requests within the batch limit.',
  },
  MESSAGE_LIMIT_EXCEEDED: {
    status: 400,
    published,
    description: 'The message text is too long.',
    fix: 'Shorten the text to the message limit (counted in characters).',
  },
  CLIENT_REFERENCE_LIMIT_EXCEEDED: {
    status: 400,
    published,
    description: 'client_reference is longer than 100 characters.',
    fix: 'Shorten client_reference to 100 characters at most.',
  },
  INVALID_RECIPIENT_ENTRY: {
    status: 400,
    published,
    description: 'A recipient is not an 11-digit South African mobile number starting with 27.',
    fix: 'Write each number as 27 followed by 9 digits, with no plus, leading zero, spaces or symbols. Note that the request is still charged.',
  },
  INSUFFICIENT_BALANCE: {
    status: 402,
    published,
    description: 'Not enough SMS credits to send or schedule this message.',
    fix: 'Top up the balance (control API or library) or send to fewer recipients or shorter text.',
  },
  SCHEDULE_EMPTY_PARAMETER: {
    status: 400,
    published,
    description: 'The schedule parameter is blank.',
    fix: 'Omit schedule to send now, or give a time as YYYY-MM-DDTHH:MM[(+-)HH:MM].',
  },
  DATE_TIME_INVALID: {
    status: 400,
    published,
    description: `The schedule is not a valid time ${scheduleWindowWords}.`,
    fix: `Give schedule as ${scheduleFormat} (${defaultOffsetWords}), later than now plus ${minimumLead.words} and at most ${maximumLead.words} ahead.`,
  },
  MESSAGE_NOT_FOUND: {
    status: 404,
    published: emulator,
    description: 'No message with this id exists for this account in this environment.',
    fix: 'Use an id returned by a send of the same account, on the same base address (live or sandbox).',
  },
  MESSAGE_NOT_SCHEDULED: {
    status: 402,
    published: emulator,
    description: 'Only a message whose status is scheduled can be edited or deleted.',
    fix: 'Edit or delete a message before its schedule time; a sent message cannot be changed.',
  },
  NO_SMS_MESSAGES: {
    status: 404,
    published,
    description: 'No messages match this list request or page.',
    fix: 'Not strictly an error: there are no records for these filters or this page. Check the filters or ask for an earlier page.',
  },
  INVALID_QUERY_PARAMETER: {
    status: 400,
    published: emulator,
    description: 'A query parameter has a value that is not allowed.',
    fix: 'Give page and limit as whole numbers of at least 1 (limit at most 100).',
  },
  INVALID_EMULATOR_HEADER: {
    status: 400,
    published: emulator,
    description: 'An emulator request header (X-Emulator-Outcome, X-Emulator-Network) has a value that is not allowed.',
    fix: 'X-Emulator-Outcome: give a named outcome (delivered, undelivered, expired, blist, noroute, failed) or a timeline such as submitted@2s,undelivered@30s. X-Emulator-Network: give reset, hang-up, truncated, html, slow-body (or slow-body@500ms) or reset-after-handling. Or leave the header out.',
  },
  SCENARIO_INVALID: {
    status: 400,
    published: emulator,
    description: 'The scenario is not valid; nothing was changed.',
    fix: 'Fix the places the description names (file:line:column: path: problem); scenarios/scenario.schema.json lists what is allowed.',
  },
  DELIVERY_LOG_INVALID: {
    status: 400,
    published: emulator,
    description:
      'The delivery log cannot be made into a scenario: a row, and the column of the log it names, holds something the reader cannot take.',
    fix: "Fix the row and column the description names; a time needs its UTC offset (Z, +02:00) or --timezone <IANA zone>, a status is one of the emulator's or an SMPP receipt word (docs/parity.md#incident-replay-parity-scenario).",
  },
  ROUTE_NOT_FOUND: {
    status: 404,
    published: emulator,
    description: 'No endpoint exists at this path.',
    fix: 'Check the path: the API lives under /v1 (live) and /sandbox/v1 (sandbox).',
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    published: emulator,
    description: 'Too many requests.',
    fix: 'Wait for the number of seconds in Retry-After and back off exponentially.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    published: emulator,
    description: 'The request body is larger than the emulator accepts; nothing was changed.',
    fix: 'Send a smaller body, or start the emulator with a larger --max-body-size (bytes; default 1048576).',
  },
  SNAPSHOT_TOO_LARGE: {
    status: 413,
    published: emulator,
    description:
      'The snapshot is larger than the emulator imports (the maxSnapshotSize option), or holds more JSON values than an export of its size could; nothing was changed.',
    fix: 'Import a smaller snapshot, or start the emulator with a larger --max-snapshot-size (bytes; docs/options.md gives the default, docs/reliability.md what a size costs).',
  },
  SNAPSHOT_TOO_DEEP: {
    status: 400,
    published: emulator,
    description:
      'The snapshot is nested deeper than 512 levels, which no snapshot the emulator exports is; nothing was changed.',
    fix: 'Import a snapshot the emulator exported (GET /_emulator/snapshot), edited without adding nesting.',
  },
  SNAPSHOT_IMPORT_RUNNING: {
    status: 503,
    published: emulator,
    description:
      'A snapshot import was putting its state in place; the request was refused so that it neither sees nor changes half a state; nothing was changed.',
    fix: 'Retry after the seconds in Retry-After (1): the import replaces the whole state, so send after PUT /_emulator/snapshot has answered.',
  },
  CONTROL_INVALID_REQUEST: {
    status: 400,
    published: emulator,
    description: 'The control API request is not valid.',
    fix: 'See docs/control-api.md (and the OpenAPI document at /_emulator/openapi.json) for the fields each endpoint takes.',
  },
  CONTROL_NOT_FOUND: {
    status: 404,
    published: emulator,
    description: 'The control API resource does not exist.',
    fix: 'Check the account key, message id or event id.',
  },
  CONTROL_CONFLICT: {
    status: 409,
    published: emulator,
    description: 'The control API request conflicts with the current state.',
    fix: 'An account with this API key already exists; choose another key or update the existing account.',
  },
  CONTROL_WAIT_FAILED: {
    status: 409,
    published: emulator,
    description: 'The message did not reach the status waited for: it ended in another, or the time allowed passed.',
    fix: 'Read the history in the description; give a longer `within`, or wait for the status the message ended in.',
  },
  CONTROL_WEBHOOK_REFUSED: {
    status: 409,
    published: emulator,
    description:
      "The message reached the status waited for, but the account's webhook receiver refused every try of that status's notification (no retry left): the app never heard of it.",
    fix: "Read the receiver's answers in the description (status and the start of each body): often a signature check with the wrong secret (a world's is its account's webhookSigningSecret) or a wrong route.",
  },
  WEBHOOK_URL_IS_EMULATOR: {
    status: 400,
    published: emulator,
    description:
      'The webhook URL (or the receiver to check) is this emulator itself: one of its ports under a loopback name or one of its host names, or its publicUrl; a post there would reach its own routes and could feed itself. Nothing was changed.',
    fix: "Point the URL at your app's receiver (a program on another port, such as createWebhookCatcher() on a free one); to see what the emulator posts, read the webhook log (GET /_emulator/webhooks) or the inbox.",
  },
  WEBHOOK_REDELIVERY_LIMIT: {
    status: 409,
    published: emulator,
    description: `The webhook event was already redelivered as many times as one event may be (${maxRedeliveries}).`,
    fix: 'Fix the receiver, then send the message again (a new event), or reset the emulator; each redelivery makes up to webhookRetries + 1 tries, and the cap keeps one event from multiplying them without end.',
  },
  WEBHOOK_OTHER_WORLD: {
    status: 403,
    published: emulator,
    description:
      "A webhook post of one account asked to redeliver an event of another account: one test's world may not set off another's webhooks.",
    fix: 'Redeliver from your test code (no X-Emulator-Event-Id header), or redeliver an event of the same account; webhook URLs never point at the emulator itself.',
  },
  MCP_OUTSIDE_WORLD: {
    status: 403,
    published: emulator,
    description:
      "An MCP tool call reached beyond the session's world: another account, message, webhook event or clock, a receiver the world does not name, or the whole emulator (reset all, snapshot, the global scenario).",
    fix: "Leave the account, clock and ids out (a session's tools fill in its own world), or use the world-shaped tool the description names; run the whole-emulator operations from the control API or the CLI.",
  },
  MCP_UNKNOWN_TOOL: {
    status: 404,
    published: emulator,
    description: 'The MCP server offers no tool, resource or prompt by that name.',
    fix: 'List them (tools/list, resources/list, prompts/list): every control operation is a tool named after it (messages_list), beside the agent tools (open_world, latest_code, …).',
  },
  MCP_INPUT_TOO_LARGE: {
    status: 413,
    published: emulator,
    description: "An MCP tool call's arguments are larger than the server takes (64 KiB of JSON).",
    fix: 'Send smaller arguments: a scenario or text of that size belongs in a file loaded with the CLI or the control API.',
  },
  MCP_SESSION_LIMIT: {
    status: 429,
    published: emulator,
    description: 'The MCP endpoint already holds as many sessions as mcpSessionLimit allows.',
    fix: 'End sessions you no longer use (an MCP client closes its session with DELETE), wait for idle ones to end (mcpIdleLimit), or raise mcpSessionLimit.',
  },
  MCP_WAIT_LIMIT: {
    status: 429,
    published: emulator,
    description:
      'An MCP session already holds as many waits at once (wait_for_message, latest_code with `within`) as it may (4).',
    fix: 'Let a wait answer before starting another: one wait per number the app texts is enough, and each waits at most 60 s.',
  },
  MCP_NO_MESSAGE: {
    status: 404,
    published: emulator,
    description:
      "No message of the session's world matched within the time given (to that number, with that text or code pattern).",
    fix: 'Check the number (international format, as the API stores it) and the pattern, give the app more time with `within`, or list the messages the world holds (messages_list).',
  },
  CLOCK_BACKWARDS: {
    status: 400,
    published: emulator,
    description: 'The emulator clock cannot move backwards.',
    fix: 'Set a time later than the current clock time, or reset the emulator.',
  },
  CONTROL_UNAUTHORIZED: {
    status: 401,
    published: emulator,
    description: 'The control API requires the control token.',
    fix: 'Send Authorization: Bearer <token> with the token given by --control-token.',
  },
  HOST_NOT_ALLOWED: {
    status: 403,
    published: emulator,
    description: 'The Host header names a host this emulator does not answer to (a guard against DNS rebinding).',
    fix: 'Call the emulator at localhost, 127.0.0.1 or [::1] (or the --host it listens on), or add the name with --allowed-hosts (SMS_EMULATOR_ALLOWED_HOSTS); --allowed-hosts all turns the check off.',
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    published: emulator,
    description:
      "The request came from a web page on another origin (its Origin or Sec-Fetch-Site header says so); the control API only answers the emulator's own pages and clients that send no Origin.",
    fix: 'Call the control API from curl, the library, connect() or a server-side client (they send no Origin), or from the inbox the emulator serves; a page on another origin cannot be allowed.',
  },
  INTERNAL_SERVER_ERROR: {
    status: 500,
    published,
    description: 'An unexpected fault happened on the server side.',
    fix: 'Retry later; in the emulator this is a bug (or an injected fault) worth reporting.',
  },
  JSON_EXCEEDED: {
    status: 400,
    published,
    description: 'Maximum stack depth exceeded: the JSON body is nested too deeply.',
    fix: 'Send a flat object of fields; nesting deeper than 512 levels is refused.',
  },
  JSON_MALFORMED: {
    status: 400,
    published,
    description: 'Underflow or mode mismatch: the JSON brackets do not match.',
    fix: 'Close every { with } and every [ with ], in order.',
  },
  JSON_ERROR_CTRL_CHAR: {
    status: 400,
    published,
    description: 'Unexpected control character in the JSON body.',
    fix: 'Escape control characters inside strings (\\n, \\t, \\u0000…).',
  },
  JSON_INVALID_SYNTAX: {
    status: 400,
    published,
    description: 'The JSON body is malformed.',
    fix: 'Send a valid JSON object, or a form-encoded body with Content-Type: application/x-www-form-urlencoded.',
  },
  JSON_MALFORMED_UTF8: {
    status: 400,
    published,
    description: 'The body is not valid UTF-8.',
    fix: 'Encode the body as UTF-8.',
  },
  JSON_UNKNOWN: {
    status: 400,
    published,
    description: 'Unknown JSON error: the body is JSON but not an object of fields.',
    fix: 'Send a JSON object such as {"recipient": ["27831234567"], "message": "Hi"}.',
  },
} satisfies Record<string, ErrorDefinition>;

/** Every error code the emulator answers with. */
export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** A failure that becomes one catalogued error response (or a thrown library error with the same text). */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly description: string;
  readonly headers: Readonly<Record<string, string>>;

  /** `status` overrides the catalogued one only for injected faults (a 503 carrying INTERNAL_SERVER_ERROR). */
  constructor(code: ErrorCode, description?: string, headers: Record<string, string> = {}, status?: number) {
    const definition: ErrorDefinition = errorCatalogue[code];
    const text = description ?? definition.description;
    super(`sms-emulator: ${code}: ${text}`);
    this.name = 'ApiError';
    this.code = code;
    this.status = status ?? definition.status;
    this.description = text;
    this.headers = headers;
  }
}
