/** Every user-facing setting: its type, default, CLI flag and environment twin, in one table. */

import { z } from 'zod';
import { apiKeySchema, webhookUrlSchema } from './domain/accountFields.js';
import { allowedHostSchema } from './domain/hostNames.js';
import { clockInstant, clockModes, clockSpeed } from './domain/clockRange.js';
import { durationSchema, wallWaitSchema } from './domain/durationSchema.js';
import { describeIssues, parseOnce } from './domain/issues.js';
import { finalStatuses, legStatuses } from './domain/message.js';
import { parseOffset } from './domain/time.js';
import { pricings } from './domain/segments.js';

/** How a CLI flag or environment value is read before validation. */
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'list';

interface Setting<S extends z.ZodType> {
  schema: S;
  kind: Kind;
  description: string;
  /** False for settings given only through the library or a scenario file. */
  cli: boolean;
  /** A credential: `startEmulator` hands it to the process through its environment, never its command line. */
  secret: boolean;
}

function setting<S extends z.ZodType>(
  schema: S,
  kind: Kind,
  description: string,
  { cli = true, secret = false } = {},
): Setting<S> {
  return { schema, kind, description, cli, secret };
}

const secret = { secret: true };

/** How request log lines are written: a line of text, or one JSON object per line. */
export const logFormats = ['text', 'json'] as const;

export const settings = {
  host: setting(z.string().min(1).default('127.0.0.1'), 'string', 'Interface to listen on (0.0.0.0 for all).'),
  port: setting(z.number().int().min(0).max(65535).default(2727), 'integer', 'Port to listen on; 0 picks a free port.'),
  apiKey: setting(apiKeySchema.default('pk_test_sms_emulator'), 'string', 'API key of the default account.', secret),
  signingSecret: setting(
    z.string().min(1).default('sk_test_sms_emulator'),
    'string',
    'Signing secret of the default account.',
    secret,
  ),
  balance: setting(
    z.number().int().min(0).default(1000),
    'integer',
    'Starting credits of the default account (live and sandbox).',
  ),
  webhookUrl: setting(webhookUrlSchema.optional(), 'string', 'Webhook URL of the default account (live and sandbox).'),
  seed: setting(
    z.string().min(1).optional(),
    'string',
    'Seed for ids and random choices; random (and printed) when not given.',
  ),
  errorEnvelope: setting(
    z.enum(['bare', 'wrapped']).default('bare'),
    'string',
    'Error body shape: bare {message, description, documentation_url} or wrapped in {"error": …}.',
  ),
  batchLimit: setting(
    z.number().int().min(1).default(500),
    'integer',
    'Most recipients per request (BATCH_LIMIT_EXCEEDED above it); the spec text also states 100.',
  ),
  messageLimit: setting(
    z.number().int().min(1).default(440),
    'integer',
    'Longest message text in characters (MESSAGE_LIMIT_EXCEEDED above it); the spec text also states 160.',
  ),
  pricing: setting(
    z.enum(pricings).default('per-segment'),
    'string',
    'Cost of a send: segments × recipients, or one credit per recipient.',
  ),
  chargeRejectedRecipients: setting(
    z.boolean().default(true),
    'boolean',
    'Charge a send rejected with INVALID_RECIPIENT_ENTRY, as the spec says the gateway does.',
  ),
  checkBalanceOnSchedule: setting(
    z.boolean().default(true),
    'boolean',
    'Refuse a schedule (INSUFFICIENT_BALANCE) when the balance does not cover it at request time.',
  ),
  noMessagesStatus: setting(
    z.union([z.literal(404), z.literal(200)]).default(404),
    'integer',
    'HTTP status of NO_SMS_MESSAGES (an empty list or page).',
  ),
  requireSignatureOnPatch: setting(
    z.boolean().default(false),
    'boolean',
    'Require the Signature header on PATCH (it is always checked when present).',
  ),
  timeZoneOffset: setting(
    z
      .string()
      .refine((value) => parseOffset(value) !== undefined, 'expected an offset such as +02:00, -05:30 or Z')
      .default('+02:00'),
    'string',
    'Offset that times in responses are rendered in.',
  ),
  tls: setting(
    z.boolean().default(false),
    'boolean',
    'Serve HTTPS with a self-signed certificate made at start (its SHA-256 fingerprint is in the banner).',
  ),
  tlsCert: setting(
    z.string().min(1).optional(),
    'string',
    'Serve HTTPS with this certificate (PEM file); give tlsKey too.',
  ),
  tlsKey: setting(z.string().min(1).optional(), 'string', 'Private key (PEM file) of tlsCert.'),
  publicUrl: setting(
    z
      .url()
      .refine((value) => {
        const url = URL.canParse(value) ? new URL(value) : undefined;
        return url !== undefined && /^https?:$/.test(url.protocol) && url.pathname === '/' && !/[?#]/.test(value);
      }, 'expected an origin such as https://sms.example.test:8443, with no path')
      .optional(),
    'string',
    'Fixed origin of every link (API responses, webhook payloads, docs URLs, banner) instead of the one each request came in on.',
  ),
  docsUrl: setting(z.url().optional(), 'string', 'Base of documentation_url links; default <origin>/_emulator/docs.'),
  requireHttps: setting(
    z.boolean().default(false),
    'boolean',
    'Refuse plain HTTP with CONNECTION_INSECURE (honours X-Forwarded-Proto).',
  ),
  clock: setting(
    z.enum(clockModes).default('realtime'),
    'string',
    'Clock mode: realtime follows wall time (× speed); manual moves only when told.',
  ),
  speed: setting(
    clockSpeed.default(1),
    'number',
    'How many times faster than wall time the realtime clock runs (more than 0, at most 1000000).',
  ),
  startTime: setting(
    clockInstant.optional(),
    'string',
    'Instant the clock starts at (ISO 8601, years 1970 to 9999); default the wall time at start.',
  ),
  validityPeriod: setting(
    durationSchema.default('48h'),
    'string',
    'Time after which a leg with no final outcome becomes expired.',
  ),
  notifyOn: setting(
    z.array(z.enum(legStatuses)).default(['submitted', ...finalStatuses]),
    'list',
    'Leg statuses that send a delivery notification (comma-separated on the CLI).',
  ),
  webhookRetries: setting(
    z.number().int().min(0).max(100).default(3),
    'integer',
    'Re-attempts after a webhook try that does not answer 200 (4 tries in all by default).',
  ),
  webhookBackoff: setting(
    wallWaitSchema.default('0ms'),
    'string',
    'Wall-clock wait between webhook tries; 0 re-sends at once, as the spec says.',
  ),
  webhookTimeout: setting(
    wallWaitSchema.default('5s'),
    'string',
    'How long a webhook try may take before it counts as failed.',
  ),
  webhookLogLimit: setting(
    z.number().int().min(1).default(10_000),
    'integer',
    'Most webhook events kept in the log; the oldest finished ones go first, never one still being tried.',
  ),
  webhookSigningSecret: setting(
    z.string().min(1).optional(),
    'string',
    'Signs the webhooks of the default account and of accounts made without one: their bodies carry Webhook-Signature, lowercase hex HMAC-SHA256 of the body with this secret; unset, they go unsigned. A world has its own (drawn when it names none).',
    secret,
  ),
  webhookDuplicateRate: setting(
    z.number().min(0).max(1).default(0),
    'number',
    'Probability that a notification is re-sent once: an emulator-wide `duplicate` delivery behaviour with this probability.',
  ),
  webhookDelayRate: setting(
    z.number().min(0).max(1).default(0),
    'number',
    'Probability that a notification is held for webhookDelay: an emulator-wide `late` delivery behaviour with this probability.',
  ),
  webhookReorderRate: setting(
    z.number().min(0).max(1).default(0),
    'number',
    "Probability that a leg's `submitted` notification is held until the message's next one: an emulator-wide `reorder` delivery behaviour with this probability.",
  ),
  webhookDelay: setting(
    durationSchema.default('30s'),
    'string',
    'How long webhookDelayRate holds a notification, on the emulator clock (the `after` of its `late` behaviour).',
  ),
  scenario: setting(
    z
      .union([
        z.string().min(1),
        z.record(z.string(), z.unknown()),
        z.array(z.union([z.string().min(1), z.record(z.string(), z.unknown())])),
      ])
      .optional(),
    'list',
    'Scenario file(s) (YAML or JSON) or objects; repeat --scenario to extend one with another. They add to the built-in magic numbers unless a file says magicNumbers: false.',
  ),
  outcomeHeader: setting(
    z.boolean().default(true),
    'boolean',
    "Honour the X-Emulator-Outcome request header that forces the outcome of one send, and X-Emulator-Network that fails one request's transport.",
  ),
  optOutKeywords: setting(
    z.array(z.string().min(1)).default(['STOP']),
    'list',
    'Reply texts (any case, spaces trimmed) that opt a number out: later legs to it end blist; a list replaces the default.',
  ),
  optInKeywords: setting(
    z.array(z.string().min(1)).default(['START']),
    'list',
    'Reply texts (any case, spaces trimmed) that opt a number back in.',
  ),
  readyFile: setting(
    z.string().min(1).optional(),
    'string',
    'CLI: once listening, write the URLs and credentials as JSON to this file (atomically); it is removed on exit while it names this process.',
  ),
  parentPid: setting(
    z.number().int().min(1).optional(),
    'integer',
    'CLI: stop (saying why on standard error) within a second after the process with this id is gone (exited, a zombie not yet reaped, or its id reused), so a test run that was killed leaves no emulator behind; startEmulator and the language kits pass their own.',
  ),
  parentStdin: setting(
    z.boolean().default(false),
    'boolean',
    'CLI: stop (saying why on standard error) once standard input ends: the parent holds a pipe to it, whose end the system closes however the parent ends, on every system. Off by default: a launcher may start the emulator with standard input closed.',
  ),
  maxBodySize: setting(
    z.number().int().min(1).max(1_073_741_824).default(1_048_576),
    'integer',
    'Largest request body in bytes, API and control API alike (a snapshot import has its own limit, maxSnapshotSize); a larger one is refused while it streams in (413 PAYLOAD_TOO_LARGE).',
  ),
  maxSnapshotSize: setting(
    z.number().int().min(1).max(1_073_741_824).default(67_108_864),
    'integer',
    'Largest snapshot import (PUT /_emulator/snapshot) in bytes; a larger one is SNAPSHOT_TOO_LARGE (413). The default, 64 MiB, holds an export of 100,000 delivered messages (61 MiB) at an import peak of about 0.25 GB, and its import kept health answering within 100 ms in every measured run on 2 cores, where 128 MiB did not (docs/reliability.md has the measurements).',
  ),
  controlToken: setting(
    z.string().min(1).optional(),
    'string',
    'When set, the control API (/_emulator) requires Authorization: Bearer <token>.',
    secret,
  ),
  allowedHosts: setting(
    z.array(allowedHostSchema).optional(),
    'list',
    "More Host names the emulator answers to, besides loopback names, the listening address and publicUrl's host (exact names, comma-separated on the CLI); all turns the Host check off.",
  ),
  requestJournalLimit: setting(
    z.number().int().min(0).default(10_000),
    'integer',
    'Most API requests kept in the request journal (GET /_emulator/requests); the oldest go first; 0 keeps none.',
  ),
  logRequests: setting(
    z.boolean().default(false),
    'boolean',
    'Print one line per API request (accepted or rejected) to standard output.',
  ),
  logFormat: setting(
    z.enum(logFormats).default('text'),
    'string',
    'Format of the start-up banner and --log-requests lines: text, or one JSON object per line (the ready-file fields; a journal entry).',
  ),
  ui: setting(
    z.boolean().default(true),
    'boolean',
    'Serve the live web inbox at /_emulator/ui (and redirect / to it); --no-ui turns it off.',
  ),
  mcpSessionLimit: setting(
    z.number().int().min(1).max(1_000).default(16),
    'integer',
    'Most MCP sessions (each with its own world) the /_emulator/mcp endpoint holds at once; one more is MCP_SESSION_LIMIT (429).',
  ),
  mcpIdleLimit: setting(
    wallWaitSchema.default('30m'),
    'string',
    'How long an MCP session over HTTP may go unused (wall time) before it ends and its world (account, clock, messages) is deleted.',
  ),
  reportOnExit: setting(
    z.string().min(1).optional(),
    'string',
    "Write the default account's timeline report to this file when the emulator stops (JSON when it ends in .json, else HTML).",
  ),
} as const;

/**
 * Settings only the client commands read (`sms-emulator clock advance 1h` drives a running emulator); they also reuse
 * readyFile (where to find it), controlToken, apiKey and signingSecret, under the same flags and variables.
 */
export const commandSettings = {
  url: setting(
    z.url({ protocol: /^https?$/ }).optional(),
    'string',
    "Commands: the origin of the running emulator to drive (else the ready file's origin, else http://127.0.0.1:2727).",
  ),
  timeout: setting(
    wallWaitSchema.default('30s'),
    'string',
    "Commands: how long to wait for the emulator's answer (a duration); past it the command fails with exit status 1.",
  ),
} as const;

type Settings = typeof settings;
export type OptionName = keyof Settings;

/** What `createEmulator` and the CLI accept: every setting optional. */
export type EmulatorOptions = { [K in OptionName]?: z.input<Settings[K]['schema']> };
/** Every setting with its default filled in. */
export type ResolvedOptions = { [K in OptionName]: z.output<Settings[K]['schema']> };

const optionsSchema = z.strictObject(
  Object.fromEntries(Object.entries(settings).map(([name, entry]) => [name, entry.schema])) as {
    [K in OptionName]: Settings[K]['schema'];
  },
);

/**
 * The recipient limit that applies and why, as the banner, the ready file and `/_emulator` show it: the spec states 500
 * recipients per request in one place and 100 in another (docs/behaviour-where-silent.md).
 */
export function batchLimitNote(limit: number): string {
  const why =
    limit === settings.batchLimit.schema.parse(undefined)
      ? 'the default: the spec states 500, and 100 in another place; --batch-limit 100 applies the stricter'
      : 'set with batchLimit (--batch-limit); the spec states 500, and 100 in another place';
  return `${limit} recipients per request (${why})`;
}

/** Validates options and fills defaults; throws one error naming every bad setting. */
export function resolveOptions(input: EmulatorOptions = {}): ResolvedOptions {
  const result = optionsSchema.safeParse(input, parseOnce);
  if (!result.success) {
    throw new Error(`sms-emulator: invalid options: ${describeIssues(result.error, 'options')}.`);
  }
  return result.data as ResolvedOptions;
}

/** `--webhook-url` for `webhookUrl`. */
export function flagName(name: OptionName | keyof typeof commandSettings): string {
  return `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** `SMS_EMULATOR_WEBHOOK_URL` for `webhookUrl`. */
export function envName(name: OptionName | keyof typeof commandSettings): string {
  return `SMS_EMULATOR_${name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
}

/** Reads a flag or environment value as the setting's kind (validation comes after). */
export function readSettingText(name: OptionName, text: string): unknown {
  switch (settings[name].kind) {
    case 'integer':
    case 'number':
      return text.trim() === '' ? text : Number(text);
    case 'list':
      return text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
    case 'boolean':
      if (['true', '1', 'yes', ''].includes(text.toLowerCase())) return true;
      if (['false', '0', 'no'].includes(text.toLowerCase())) return false;
      return text;
    default:
      return text;
  }
}

/** The origin every link uses when publicUrl is set (`https://sms.example.test`), else undefined. */
export function publicOrigin(options: Pick<ResolvedOptions, 'publicUrl'>): string | undefined {
  return options.publicUrl === undefined ? undefined : new URL(options.publicUrl).origin;
}
