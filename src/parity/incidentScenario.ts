/**
 * An incident turned into a scenario: from a transcript or a provider's delivery log (CSV or JSON: id, recipient,
 * status, times), each number's timeline of statuses, the replies, and the delivery behaviours observed (late,
 * duplicate, reorder, orphan), so sending the same messages on the virtual clock reproduces the same statuses in
 * the same order at the same times.
 */

import { walkProblem } from '../domain/message.js';
import { legStatuses } from '../domain/message.js';
import { type AccountScenarioInput, accountScenarioSchema } from '../engine/scenario/schema.js';
import { validateScenario } from '../engine/scenario/parse.js';
import { formatDuration } from './formatDuration.js';
import { maxJsonDepth, nestedTooDeep } from '../domain/jsonScan.js';
import { parseTranscript } from './transcript.js';

/** One receipt as a log or a transcript shows it. */
export interface Receipt {
  /** The row (a log's line, 1 for a CSV's first data row after its header) or transcript line it came from. */
  line: number;
  message: string;
  recipient: string;
  status: string;
  /** When the status happened (epoch ms). */
  at: number;
  /** When the notification arrived, if the source says (epoch ms). */
  received?: number;
  /** When the message was sent, if the source says (epoch ms). */
  sent?: number;
  /** A reply's text (status `reply`). */
  text?: string;
}

/** What the incident showed for one leg: when it was sent and each status at its offset from the send. */
export interface IncidentLeg {
  message: string;
  recipient: string;
  /** Milliseconds from the incident's first send. */
  sentAt: number;
  /** Each status (first occurrence) and its offset from the send, in status order. */
  statuses: { status: string; after: number }[];
}

export interface IncidentScenario {
  /** The scenario (an account's own, or a file's: rules, replies, webhooks), checked to load. */
  scenario: AccountScenarioInput;
  legs: IncidentLeg[];
  /** What the scenario cannot reproduce exactly, one sentence each. */
  notes: string[];
}

const aliases: Record<keyof Omit<Receipt, 'line'>, string[]> = {
  message: ['id', 'message_id', 'messageid', 'message'],
  recipient: ['recipient', 'to', 'msisdn', 'number', 'destination'],
  status: ['status', 'state'],
  at: ['time', 'status_time', 'statustime', 'timestamp', 'at', 'date', 'delivery_date', 'updated_at'],
  received: ['received', 'received_at', 'receivedat', 'arrived', 'arrived_at'],
  sent: ['sent', 'sent_at', 'sentat', 'created', 'created_at', 'creation_date'],
  text: ['text', 'reply', 'body'],
};

/** A delivery log that cannot be read, naming the row and what is wrong. */
export class DeliveryLogError extends Error {}

function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((cell) => cell !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  row.push(field);
  if (row.some((cell) => cell !== '')) rows.push(row);
  return rows;
}

function timeOf(value: unknown, row: number, column: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const ms = typeof value === 'number' ? value : Date.parse(String(value));
  if (Number.isNaN(ms)) throw new DeliveryLogError(`row ${row}: ${column} ${JSON.stringify(value)} is not a time`);
  return ms;
}

function receiptOf(record: Record<string, unknown>, row: number): Receipt {
  const lower = new Map(
    Object.entries(record).map(([name, value]) => [name.toLowerCase().replace(/[\s-]/g, '_'), value]),
  );
  const pick = (field: keyof typeof aliases): { name: string; value: unknown } | undefined => {
    for (const name of aliases[field]) if (lower.has(name)) return { name, value: lower.get(name) };
    return undefined;
  };
  const need = (field: 'message' | 'recipient' | 'status' | 'at'): { name: string; value: unknown } => {
    const found = pick(field);
    if (found === undefined || found.value === '' || found.value === null)
      throw new DeliveryLogError(`row ${row}: no ${field} (a column named ${aliases[field].join(', ')})`);
    return found;
  };
  const at = need('at');
  const received = pick('received');
  const sent = pick('sent');
  const text = pick('text');
  const status = String(need('status').value).toLowerCase();
  const receipt: Receipt = {
    line: row,
    message: String(need('message').value),
    recipient: String(need('recipient').value).replace(/^\+/, ''),
    status,
    at: timeOf(at.value, row, at.name) as number,
  };
  const receivedAt = received && timeOf(received.value, row, received.name);
  const sentAt = sent && timeOf(sent.value, row, sent.name);
  if (receivedAt !== undefined) receipt.received = receivedAt;
  if (sentAt !== undefined) receipt.sent = sentAt;
  if (text !== undefined && text.value !== '' && text.value !== null) receipt.text = String(text.value);
  return receipt;
}

/** A delivery log's receipts: CSV with a header row, or JSON (an array of objects, or one under items, rows, deliveries or data). */
export function deliveryLogReceipts(text: string): Receipt[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    // A receipt's fields are turned into text (String of an array recurses): deeper nesting is no delivery log.
    if (nestedTooDeep(text)) throw new DeliveryLogError(`nested deeper than ${maxJsonDepth} levels`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new DeliveryLogError(`not JSON: ${(error as Error).message}`);
    }
    const holder = value as Record<string, unknown>;
    const list = Array.isArray(value)
      ? value
      : (['items', 'rows', 'deliveries', 'data'].map((name) => holder[name]).find(Array.isArray) as
          unknown[] | undefined);
    if (list === undefined)
      throw new DeliveryLogError(
        'a JSON delivery log is an array of receipts (or has one under items, rows, deliveries or data)',
      );
    return list.map((item, index) => {
      if (typeof item !== 'object' || item === null) throw new DeliveryLogError(`row ${index + 1}: not an object`);
      return receiptOf(item as Record<string, unknown>, index + 1);
    });
  }
  const [head, ...rows] = csvRows(text);
  if (head === undefined) throw new DeliveryLogError('the delivery log is empty');
  return rows.map((cells, index) =>
    receiptOf(Object.fromEntries(head.map((name, column) => [name.trim(), (cells[column] ?? '').trim()])), index + 1),
  );
}

/** A transcript's notifications and replies as receipts: arrival is the line's time, the send its answer's. */
export function transcriptReceipts(text: string): Receipt[] {
  const transcript = parseTranscript(text);
  const start = Date.parse(transcript.header.startTime);
  const sentAt = new Map<string, number>();
  const receipts: Receipt[] = [];
  transcript.events.forEach((event, index) => {
    const line = transcript.lines[index] as number;
    if (event.type === 'answer' && event.status === 201) {
      const id = (event.body as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') sentAt.set(id, start + event.t);
    }
    if (event.type === 'reply')
      receipts.push({
        line,
        message: event.message,
        recipient: event.from,
        status: 'reply',
        at: start + event.t,
        text: event.text,
      });
    if (event.type !== 'webhook' || event.attempt > 1) return;
    const payload = event.payload as { id?: unknown; type?: unknown; recipient?: unknown; status?: unknown };
    if (payload?.type === 'sms-reply' || typeof payload?.id !== 'string') return;
    const recipient = Array.isArray(payload.recipient) ? String(payload.recipient[0]) : String(payload.recipient);
    const sent = sentAt.get(payload.id);
    receipts.push({
      line,
      message: payload.id,
      recipient,
      status: String(payload.status),
      at: start + event.t,
      received: start + event.t,
      ...(sent === undefined ? {} : { sent }),
    });
  });
  return receipts;
}

/** Lateness below this is a receipt's ordinary path, not a late one. */
const lateAfterMs = 60_000;
/** The emulator's own delay before `submitted`: the send assumed this long before a leg's first status when no send time is known. */
const assumedSubmitMs = 1_000;

/** The scenario that reproduces `receipts` (from a transcript or a delivery log), named after `source`. */
export function incidentScenario(receipts: readonly Receipt[], source = 'an incident'): IncidentScenario {
  const notes: string[] = [];
  const statuses = new Set<string>(legStatuses);
  const legs = new Map<string, Receipt[]>();
  const replies: Receipt[] = [];
  for (const receipt of receipts) {
    if (receipt.status === 'reply') {
      replies.push(receipt);
      continue;
    }
    if (!statuses.has(receipt.status))
      throw new DeliveryLogError(
        `row ${receipt.line}: status ${JSON.stringify(receipt.status)} is not one of ${[...statuses].join(', ')} or reply`,
      );
    const key = `${receipt.message} ${receipt.recipient}`;
    legs.set(key, [...(legs.get(key) ?? []), receipt]);
  }
  const anySent = receipts.some((receipt) => receipt.sent !== undefined || receipt.status === 'pending');
  const built: (IncidentLeg & { sentMs: number; orphan: boolean; receipts: Receipt[] })[] = [];
  for (const list of legs.values()) {
    const first = list[0] as Receipt;
    const known =
      list.find((receipt) => receipt.sent !== undefined)?.sent ??
      list.find((receipt) => receipt.status === 'pending')?.at;
    const byTime = [...list].sort((a, b) => a.at - b.at || a.line - b.line);
    const sentMs = known ?? (byTime[0] as Receipt).at - assumedSubmitMs;
    const seen = new Set<string>();
    const walk: { status: string; at: number }[] = [];
    for (const receipt of byTime)
      if (receipt.status !== 'pending' && !seen.has(receipt.status)) {
        seen.add(receipt.status);
        walk.push({ status: receipt.status, at: receipt.at });
      }
    const problem = walkProblem(walk.map((step) => step.status));
    if (problem !== undefined)
      throw new DeliveryLogError(
        `message ${first.message} to ${first.recipient}: its statuses ${walk.map((step) => step.status).join(' → ')} are not a legal walk (${problem.problem})`,
      );
    let previous = sentMs;
    const steps = walk.map((step) => {
      const after = Math.max(0, step.at - previous);
      previous = step.at;
      return { status: step.status, after };
    });
    built.push({
      message: first.message,
      recipient: first.recipient,
      sentAt: 0,
      statuses: steps,
      sentMs,
      orphan: anySent && known === undefined,
      receipts: list,
    });
  }
  const origin = Math.min(...built.map((leg) => leg.sentMs));
  for (const leg of built) leg.sentAt = leg.sentMs - origin;
  const rules: unknown[] = [];
  const webhooks: unknown[] = [];
  const byNumber = new Map<string, typeof built>();
  for (const leg of built.filter((each) => !each.orphan))
    byNumber.set(leg.recipient, [...(byNumber.get(leg.recipient) ?? []), leg]);
  for (const [recipient, list] of byNumber) {
    const leg = list[0] as (typeof built)[number];
    const timeline = leg.statuses.map((step) => ({ status: step.status, after: formatDuration(step.after) }));
    if (list.some((other) => JSON.stringify(other.statuses) !== JSON.stringify(leg.statuses)))
      notes.push(
        `${recipient} had ${list.length} messages with different timelines; the scenario gives every message to it the first one's (message ${leg.message}).`,
      );
    rules.push({ name: `incident: ${recipient}`, match: { recipient }, outcome: { timeline } });
    // Behaviours observed on this number's notifications.
    const counts = new Map<string, number>();
    for (const receipt of leg.receipts) counts.set(receipt.status, (counts.get(receipt.status) ?? 0) + 1);
    for (const [status, count] of counts)
      if (count > 1)
        webhooks.push({
          name: `incident: ${recipient} ${status} duplicated`,
          behaviour: 'duplicate',
          match: { recipient, status },
          times: Math.min(count, 10),
        });
    const arrival = [...leg.receipts].sort(
      (a, b) => (a.received ?? a.line) - (b.received ?? b.line) || a.line - b.line,
    );
    const arrivalOrder = [...new Set(arrival.map((receipt) => receipt.status))].filter(
      (status) => status !== 'pending',
    );
    const statusOrder = leg.statuses.map((step) => step.status);
    if (arrivalOrder.join() !== statusOrder.join())
      webhooks.push({ name: `incident: ${recipient} reordered`, behaviour: 'reorder', match: { recipient } });
    for (const receipt of leg.receipts) {
      const late = receipt.received === undefined ? 0 : receipt.received - receipt.at;
      if (
        late >= lateAfterMs &&
        !webhooks.some((entry) => (entry as { name: string }).name === `incident: ${recipient} ${receipt.status} late`)
      )
        webhooks.push({
          name: `incident: ${recipient} ${receipt.status} late`,
          behaviour: 'late',
          match: { recipient, status: receipt.status },
          after: formatDuration(late),
        });
    }
  }
  const orphans = built.filter((leg) => leg.orphan);
  for (const status of new Set(orphans.flatMap((leg) => leg.statuses.map((step) => step.status)))) {
    const count = orphans.filter((leg) => leg.statuses.some((step) => step.status === status)).length;
    webhooks.push({ name: `incident: orphan ${status}`, behaviour: 'orphan', match: { status }, count });
  }
  if (orphans.length > 0)
    notes.push(
      `${orphans.length} receipt(s) name a message the log never shows sent: replayed as orphans of the same status, after a notification of that status.`,
    );
  const replyRules: unknown[] = [];
  for (const reply of replies) {
    const leg = built.find(
      (each) => each.recipient === reply.recipient && (each.message === reply.message || reply.message === ''),
    );
    const delivered = leg?.statuses.reduce<number | undefined>((sum, step) => (sum ?? 0) + step.after, undefined);
    if (leg === undefined || delivered === undefined || leg.statuses.at(-1)?.status !== 'delivered') {
      notes.push(
        `the reply ${JSON.stringify(reply.text ?? '')} from ${reply.recipient} (row ${reply.line}) answers no delivered message of the log; it is left out.`,
      );
      continue;
    }
    replyRules.push({
      name: `incident: reply from ${reply.recipient}`,
      match: { recipient: reply.recipient },
      after: formatDuration(Math.max(0, reply.at - (leg.sentMs + delivered))),
      text: reply.text && reply.text !== '' ? reply.text : '(empty)',
    });
  }
  const scenario = {
    version: 1,
    description: `Reproduces ${source}: ${byNumber.size} number(s), ${replyRules.length} reply(ies), ${webhooks.length} delivery behaviour(s).`,
    rules,
    replies: replyRules,
    webhooks,
  } as AccountScenarioInput;
  // What is written must load: checked here by the emulator's own reader, so a mistake is this module's, not the user's.
  validateScenario(scenario, source, undefined, accountScenarioSchema);
  return {
    scenario,
    legs: built.map(({ message, recipient, sentAt, statuses: steps }) => ({
      message,
      recipient,
      sentAt,
      statuses: steps,
    })),
    notes,
  };
}
