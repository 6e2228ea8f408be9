/**
 * The transcript format (version 1): JSON Lines, a header line then one line per event in the order it happened, each
 * with its time in milliseconds after the header's `startTime`. One zod definition validates files and writes the JSON
 * Schema (scenarios/transcript.schema.json).
 */

import { z } from 'zod';
import { environments } from '../domain/environment.js';
import { maxJsonDepth, nestedTooDeep } from '../domain/jsonScan.js';

export const transcriptVersion = 1;

const time = z.number().int().min(0).describe('Milliseconds after the header startTime.');

export const transcriptHeader = z.strictObject({
  version: z.literal(transcriptVersion).describe('The transcript format version.'),
  type: z.literal('header'),
  source: z
    .enum(['record', 'emulator', 'delivery-log', 'edited'])
    .describe('What wrote it: the recording proxy, a running emulator, a delivery log, or a person.'),
  startTime: z.iso.datetime({ offset: true }).describe('The instant every line time counts from.'),
  timeZone: z
    .string()
    .regex(/^(Z|[+-]\d{2}:\d{2})$/)
    .describe('The offset a {{time:…}} placeholder without its own is written in.'),
  upstream: z.string().optional().describe('The provider base URL a recording was made against.'),
  values: z
    .record(z.string(), z.string())
    .optional()
    .describe('Recorded values of input placeholders ("ref:1": "order-42"), used when the transcript is replayed.'),
});

const headers = z.record(z.string(), z.string()).describe('Lowercase names; the key and signature as placeholders.');

export const requestLine = z.strictObject({
  t: time,
  type: z.literal('request'),
  id: z.string().min(1).describe('Names the request for its answer line (r1, r2, …).'),
  method: z.string().min(1),
  path: z.string().startsWith('/').describe('The path without the query, ids as {{id:N}} placeholders.'),
  query: z.string().optional().describe('The query string without "?".'),
  environment: z.enum(environments),
  headers,
  body: z.unknown().optional().describe('The JSON body, when it was JSON.'),
  bodyText: z.string().optional().describe('The body as text, when it was not JSON.'),
});

export const answerLine = z.strictObject({
  t: time,
  type: z.literal('answer'),
  request: z.string().min(1),
  status: z.number().int().min(0).max(599).describe('0 when the connection ended without an answer.'),
  body: z.unknown().optional(),
  bodyText: z.string().optional(),
  retryAfter: z.string().optional(),
});

export const webhookLine = z.strictObject({
  t: time,
  type: z.literal('webhook'),
  id: z.string().min(1).describe('Names the post for its answer line (w1, w2, …).'),
  attempt: z.number().int().min(1).describe('1 for the first try of a notification, 2 for its first re-try, …'),
  payload: z.unknown(),
  signatureValid: z.boolean().nullable().describe('null when no webhook secret was known.'),
  posted: z.boolean().optional().describe('false for a notification logged but not posted (no webhook URL).'),
});

export const webhookAnswerLine = z.strictObject({
  t: time,
  type: z.literal('webhook-answer'),
  webhook: z.string().min(1),
  status: z.number().int().min(100).max(599).optional(),
  error: z.string().optional().describe('Why there was no answer: timeout or connection error.'),
});

export const replyLine = z.strictObject({
  t: time,
  type: z.literal('reply'),
  message: z.string().min(1).describe('The message replied to, as its {{id:N}} placeholder.'),
  from: z.string().min(1),
  text: z.string(),
});

export const accountLine = z.strictObject({
  t: time,
  type: z.literal('account'),
  environment: z.enum(environments),
  balance: z.number().int().min(0).describe('The balance when the session first used this environment.'),
});

export const transcriptEvent = z.discriminatedUnion('type', [
  requestLine,
  answerLine,
  webhookLine,
  webhookAnswerLine,
  replyLine,
  accountLine,
]);

export type TranscriptHeader = z.infer<typeof transcriptHeader>;
export type RequestLine = z.infer<typeof requestLine>;
export type AnswerLine = z.infer<typeof answerLine>;
export type WebhookLine = z.infer<typeof webhookLine>;
export type WebhookAnswerLine = z.infer<typeof webhookAnswerLine>;
export type ReplyLine = z.infer<typeof replyLine>;
export type AccountLine = z.infer<typeof accountLine>;
export type TranscriptEvent = z.infer<typeof transcriptEvent>;

/** A parsed transcript: the header and the events, each with the line of the file it came from (the header is line 1). */
export interface Transcript {
  header: TranscriptHeader;
  events: TranscriptEvent[];
  /** `lines[i]` is the file line of `events[i]`. */
  lines: number[];
}

/** A transcript that cannot be read, naming the line and what is wrong with it. */
export class TranscriptError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

function issues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length === 0 ? '' : `${issue.path.join('.')}: `}${issue.message}`)
    .join('; ');
}

/** Reads a transcript's text; blank lines are skipped, every other line must be one event, nested at most maxJsonDepth levels. */
export function parseTranscript(text: string): Transcript {
  // A byte order mark (an editor's, on Windows) is not JSON, and not the transcript's either.
  const rows = text.replace(/^\uFEFF/, '').split('\n');
  let header: TranscriptHeader | undefined;
  const events: TranscriptEvent[] = [];
  const lines: number[] = [];
  rows.forEach((row, index) => {
    if (row.trim() === '') return;
    const line = index + 1;
    // Checked before anything walks the value: the comparison and the placeholders recurse through it.
    if (nestedTooDeep(row))
      throw new TranscriptError(
        line,
        `nested deeper than ${maxJsonDepth} levels, which no exchange the emulator or the recorder writes is`,
      );
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch (error) {
      throw new TranscriptError(line, `not JSON (${(error as Error).message})`);
    }
    if (header === undefined) {
      const checked = transcriptHeader.safeParse(value);
      if (!checked.success) {
        const version = (value as { version?: unknown } | null)?.version;
        throw new TranscriptError(
          line,
          version !== undefined && version !== transcriptVersion
            ? `transcript version ${JSON.stringify(version)} is not supported; this emulator reads version ${transcriptVersion}`
            : `not a transcript header: ${issues(checked.error)}`,
        );
      }
      header = checked.data;
      return;
    }
    const checked = transcriptEvent.safeParse(value);
    if (!checked.success) throw new TranscriptError(line, issues(checked.error));
    events.push(checked.data);
    lines.push(line);
  });
  if (header === undefined) throw new TranscriptError(1, 'the transcript is empty (its first line is the header)');
  // The recorder writes each answer right after its request: a request without one is a file cut short, which would
  // otherwise compare clean on what is left.
  const answered = new Set(events.flatMap((event) => (event.type === 'answer' ? [event.request] : [])));
  const unanswered = events.findIndex((event) => event.type === 'request' && !answered.has(event.id));
  if (unanswered >= 0)
    throw new TranscriptError(
      lines[unanswered] as number,
      'a request with no answer line: the transcript is cut short (or the answer was removed)',
    );
  return { header, events, lines };
}

/** One line of the file for a header or an event. */
export function transcriptLine(value: TranscriptHeader | TranscriptEvent): string {
  return `${JSON.stringify(value)}\n`;
}

/** The whole file. */
export function formatTranscript(header: TranscriptHeader, events: readonly TranscriptEvent[]): string {
  return [header, ...events].map(transcriptLine).join('');
}

/** The JSON Schema of one line (a header or an event), for editors and other languages. */
export function transcriptJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(z.union([transcriptHeader, transcriptEvent]), { io: 'input' }) as Record<
    string,
    unknown
  >;
  return {
    ...schema,
    title: 'sms-emulator transcript line',
    description:
      'One line of a transcript (JSON Lines): the first line is the header, every other line one event. docs/parity.md describes the format.',
  };
}
