/** The timeline report's data: one account's requests, status changes, replies, webhook tries, clock moves and incidents, and faults, in virtual-time order. */

import { type CostTrigger, explainCost } from '../domain/costExplanation.js';
import { ApiError } from '../domain/errors.js';
import { type MessageRecord, deliveryOutcomes, environments } from '../domain/message.js';
import type { Encoding } from '../domain/segments.js';
import { formatInstant } from '../domain/time.js';
import { shownWebhookEvent } from '../domain/webhookEvent.js';
import type { Core } from '../engine/core.js';
import type { JournalEntry } from '../journal/requestJournal.js';

/** The forms a timeline report is served in: a page to read, or its JSON. */
export const reportFormats = ['html', 'json'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export type TimelineKind = 'clock' | 'fault' | 'request' | 'status' | 'reply' | 'webhook';

/**
 * Within one instant: a request arrives (a fault acts on it first), statuses change, a reply comes in,
 * webhooks go out; a clock move is listed at the instant it starts from, after what happened there before it.
 */
const kindOrder: Record<TimelineKind, number> = { fault: 0, request: 1, status: 2, reply: 3, webhook: 4, clock: 5 };

export interface TimelineEntry {
  /** Virtual time, in the emulator's offset. */
  at: string;
  kind: TimelineKind;
  environment: string | null;
  messageId: string | null;
  /** One line a person reads. */
  summary: string;
  /** Marks what went wrong: a failed webhook try, an error answer, an injected fault, a failed outcome. */
  problem: boolean;
}

/** A message the account sent and what it cost: the report's cost column, with the characters that forced UCS-2. */
export interface TimelineMessage {
  /** When it was sent (virtual time, in the emulator's offset). */
  at: string;
  environment: string;
  id: string;
  recipients: string[];
  text: string;
  /** What it was charged (a scheduled message: nothing until it goes out). */
  credit: number;
  encoding: Encoding;
  units: number;
  /** Segments per recipient. */
  segments: number;
  /** Every character that forced UCS-2, with its position and what was meant, as `cost` names them. */
  triggers: CostTrigger[];
}

export interface TimelineReport {
  account: string;
  /** The test clock the account lives on (its times are that clock's), or null for the main clock. */
  clock: string | null;
  /** Virtual time the report was made. */
  generatedAt: string;
  seed: string;
  entries: TimelineEntry[];
  /** The account's messages in the order they were sent, each with what it cost and why. */
  messages: TimelineMessage[];
}

/** The outcomes the report marks as a problem: every way a delivery can end but delivered. */
const troubledStatuses = new Set<string>(deliveryOutcomes.filter((outcome) => outcome !== 'delivered'));

export function timelineReport(core: Core, account: string, requests: readonly JournalEntry[] = []): TimelineReport {
  const entries: (TimelineEntry & { ms: number; seq: number })[] = [];
  const add = (ms: number, entry: Omit<TimelineEntry, 'at'>): void => {
    entries.push({ at: formatInstant(ms, core.offsetMinutes), ...entry, ms, seq: entries.length });
  };

  const owner = core.store.accounts.get(account);
  if (!owner) throw new ApiError('CONTROL_NOT_FOUND', `No account has the API key "${account}".`);
  // Everything about the account runs on its own clock: another clock's moves and incidents are not part of its story.
  const clock = owner.clock;

  for (const note of core.timeline.list()) {
    if (note.kind === 'clock') {
      if (note.clock !== clock.id) continue;
      const moved =
        note.to > note.from
          ? `moved ${formatInstant(note.from, core.offsetMinutes)} → ${formatInstant(note.to, core.offsetMinutes)}`
          : 'stayed';
      add(note.from, {
        kind: 'clock',
        environment: null,
        messageId: null,
        summary: `clock ${moved} (${note.mode}${note.mode === 'realtime' ? ` ×${note.speed}` : ''}) by ${JSON.stringify(note.command)}`,
        problem: false,
      });
    } else if (note.account === account) {
      const effect = [
        note.code ? `answered ${note.code}` : '',
        note.network ? `network ${note.network}` : '',
        note.latencyMs > 0 ? `delayed ${note.latencyMs} ms` : '',
      ]
        .filter(Boolean)
        .join(', ');
      add(note.at, {
        kind: 'fault',
        environment: note.environment,
        messageId: null,
        summary: `injected fault on ${note.operation}: ${effect}`,
        problem: true,
      });
    }
  }

  // The clock keeps its latest incidents itself; like its moves they belong to no one account on that clock.
  for (const incident of clock.state().incidents) {
    add(incident.due, {
      kind: 'clock',
      environment: null,
      messageId: null,
      summary: `clock task "${incident.task}" ${incident.outcome}: ${incident.reason}`,
      problem: true,
    });
  }

  for (const request of requests) {
    const code = request.code ? ` ${request.code}` : '';
    add(Date.parse(request.time), {
      kind: 'request',
      environment: request.environment,
      messageId: request.messageId,
      summary: `${request.method} ${request.path} → ${request.status}${code} in ${Math.round(request.durationMs)} ms`,
      problem: request.status >= 400,
    });
  }

  const sent: MessageRecord[] = [];
  for (const environment of environments) {
    for (const message of owner.environments[environment].messages ?? []) {
      sent.push(message);
      for (const leg of message.legs) {
        for (const change of leg.history) {
          add(change.at, {
            kind: 'status',
            environment,
            messageId: message.id,
            summary: `${message.id} to ${leg.recipient}: ${change.status}`,
            problem: troubledStatuses.has(change.status),
          });
        }
      }
    }
    for (const reply of owner.environments[environment].replies) {
      add(reply.createdAt, {
        kind: 'reply',
        environment,
        messageId: reply.inReplyTo ?? null,
        summary: `reply from ${reply.recipients.join(', ')}: ${JSON.stringify(reply.text)}`,
        problem: false,
      });
    }
  }

  for (const event of core.webhooks.log.list({ account }).map(shownWebhookEvent)) {
    const touched = event.behaviours.length === 0 ? '' : ` [${event.behaviours.join(', ')}]`;
    const what = `${event.kind} webhook (${event.status}) of ${event.messageId}${touched}`;
    if (event.attempts.length === 0) {
      const why = event.state === 'skipped' ? 'not posted: no webhook URL' : `${event.state}, not tried yet`;
      add(Date.parse(event.createdAt), {
        kind: 'webhook',
        environment: event.environment,
        messageId: event.messageId,
        summary: `${what}: ${why}`,
        problem: false,
      });
    }
    for (const attempt of event.attempts) {
      const answer = attempt.status === undefined ? (attempt.error ?? 'no answer') : `HTTP ${attempt.status}`;
      add(Date.parse(attempt.at), {
        kind: 'webhook',
        environment: event.environment,
        messageId: event.messageId,
        summary: `${what}, try ${attempt.number} to ${attempt.url}: ${answer} in ${attempt.durationMs} ms`,
        problem: !attempt.ok,
      });
    }
  }

  entries.sort((a, b) => a.ms - b.ms || kindOrder[a.kind] - kindOrder[b.kind] || a.seq - b.seq);
  return {
    account,
    clock: clock.id,
    generatedAt: formatInstant(clock.now(), core.offsetMinutes),
    seed: core.seed,
    entries: entries.map(({ ms: _ms, seq: _seq, ...entry }) => entry),
    messages: sent.sort((a, b) => a.createdAt - b.createdAt).map((message) => messageCost(message, core.offsetMinutes)),
  };
}

function messageCost(message: MessageRecord, offsetMinutes: number): TimelineMessage {
  const { encoding, units, segments, triggers } = explainCost(message.text, { recipients: message.recipients.length });
  return {
    at: formatInstant(message.createdAt, offsetMinutes),
    environment: message.environment,
    id: message.id,
    recipients: [...message.recipients],
    text: message.text,
    credit: message.credit,
    encoding,
    units,
    segments,
    triggers,
  };
}
