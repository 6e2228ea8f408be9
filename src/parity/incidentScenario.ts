/**
 * An incident turned into a scenario: from a transcript or a provider's delivery log (CSV or JSON: id, recipient,
 * status, times), each number's timeline of statuses, the replies, and the delivery behaviours observed (late,
 * duplicate, reorder, orphan), so sending the same messages on the virtual clock reproduces the same statuses in
 * the same order at the same times.
 */

import { basename, isAbsolute } from 'node:path';
import { type DeliveryBehaviourName, maxDeliveriesPerNotification } from '../domain/deliveryBehaviour.js';
import { ApiError } from '../domain/errors.js';
import { legStatuses, walkProblem } from '../domain/message.js';
import { isValidMsisdn } from '../domain/msisdn.js';
import { type AccountScenarioInput, accountScenarioSchema, scenarioBounds } from '../engine/scenario/schema.js';
import { validateScenario } from '../engine/scenario/parse.js';
import { maxPatternLength } from '../engine/scenario/pattern.js';
import { formatDuration } from './formatDuration.js';
import { maxJsonDepth, nestedTooDeep } from '../domain/jsonScan.js';
import { isTimeZone, logTime } from './logTime.js';
import { smppStatus, smppStatusWords } from './smppStatusWords.js';
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
  /** The log's own name of the column the recipient came from, for what is said of it (a delivery log's). */
  recipientColumn?: string;
}

/** What the incident showed for one leg: when it was sent and each status at its offset from the send. */
export interface IncidentLeg {
  message: string;
  recipient: string;
  /** Milliseconds from the incident's first send. */
  sentAt: number;
  /** Each status (first occurrence) and its offset from the previous status (the first one's from the send), in status order. */
  statuses: { status: string; after: number }[];
}

/** How a delivery log is read. */
export interface DeliveryLogOptions {
  /** The IANA zone (`Africa/Johannesburg`) a time with no UTC offset is read in; without it such a time is refused. */
  timeZone?: string;
}

/** How an incident is made into a scenario. */
export interface IncidentOptions {
  /** Refuse a receipt whose recipient the API would refuse, instead of leaving it out with a warning. */
  strict?: boolean;
}

export interface IncidentScenario {
  /** The scenario (an account's own, or a file's: rules, replies, webhooks), checked to load. */
  scenario: AccountScenarioInput;
  legs: IncidentLeg[];
  /** What the scenario cannot reproduce exactly, one sentence each. */
  notes: string[];
  /** What was left out of the incident (receipts for numbers the API refuses), naming the rows. */
  warnings: string[];
  /** The source as the scenario names it (an absolute path by its file name). */
  source: string;
}

type Field = keyof Omit<Receipt, 'line' | 'recipientColumn'>;

/** Each receipt field: the column names it is read from (any case, spaces and dashes as `_`) and what errors call it. */
const columns: Record<Field, { names: string[]; called: string }> = {
  message: { names: ['id', 'message_id', 'messageid', 'message', 'msg_id'], called: 'the message id' },
  recipient: {
    names: ['recipient', 'to', 'msisdn', 'number', 'destination', 'destination_addr'],
    called: 'the recipient',
  },
  status: { names: ['status', 'state', 'stat', 'dlr_status', 'delivery_status'], called: 'the status' },
  at: {
    names: ['time', 'status_time', 'statustime', 'timestamp', 'at', 'date', 'delivery_date', 'done_date', 'updated_at'],
    called: 'the time of the status',
  },
  received: {
    names: ['received', 'received_at', 'receivedat', 'arrived', 'arrived_at'],
    called: 'when the notification arrived',
  },
  sent: {
    names: ['sent', 'sent_at', 'sentat', 'created', 'created_at', 'creation_date', 'submit_date'],
    called: 'when the message was sent',
  },
  text: { names: ['text', 'reply', 'body'], called: 'the text' },
};

/** A delivery log that cannot be read (DELIVERY_LOG_INVALID), naming the row and the log's own column. */
export class DeliveryLogError extends ApiError {
  constructor(description: string) {
    super('DELIVERY_LOG_INVALID', description);
    this.name = 'DeliveryLogError';
  }
}

/** The delimiter of a CSV log: whichever of `,` `;` and tab its header line holds most of, outside quotes. */
function delimiterOf(text: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  return [...counts].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

function csvRows(text: string): string[][] {
  const delimiter = delimiterOf(text);
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
    else if (char === delimiter) {
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

function timeOf(value: unknown, where: string, timeZone: string | undefined): number {
  if (typeof value === 'number') return value;
  const read = logTime(String(value), timeZone);
  if ('problem' in read) throw new DeliveryLogError(`${where}: ${JSON.stringify(value)} ${read.problem}`);
  return read.at;
}

/** A leg status or `reply` as written in a log: the emulator's own words (any case) or an SMPP receipt word. */
function statusOf(word: string): string | undefined {
  const lower = word.trim().toLowerCase();
  if (lower === 'reply' || (legStatuses as readonly string[]).includes(lower)) return lower;
  return smppStatus(word.trim());
}

function receiptOf(record: Record<string, unknown>, row: number, options: DeliveryLogOptions): Receipt {
  const named = new Map(Object.keys(record).map((name) => [name.toLowerCase().replace(/[\s-]/g, '_'), name]));
  const pick = (field: Field): { column: string; value: unknown } | undefined => {
    for (const name of columns[field].names) {
      const column = named.get(name);
      if (column !== undefined) return { column, value: record[column] };
    }
    return undefined;
  };
  const present = (found: { value: unknown } | undefined): boolean =>
    found !== undefined && found.value !== '' && found.value !== null && found.value !== undefined;
  const need = (field: 'message' | 'recipient' | 'status' | 'at'): { column: string; value: unknown } => {
    const found = pick(field);
    if (found === undefined)
      throw new DeliveryLogError(
        `row ${row}: no column for ${columns[field].called} (one named ${columns[field].names.join(', ')}); the log's columns are ${Object.keys(record).join(', ')}`,
      );
    if (!present(found))
      throw new DeliveryLogError(`row ${row}, column "${found.column}": empty (${columns[field].called})`);
    return found;
  };
  const at = need('at');
  const state = need('status');
  const status = statusOf(String(state.value));
  if (status === undefined)
    throw new DeliveryLogError(
      `row ${row}, column "${state.column}": ${JSON.stringify(state.value)} is not a status: give one of ${legStatuses.join(', ')}, reply, or an SMPP receipt word (${Object.keys(smppStatusWords).join(', ')})`,
    );
  const recipient = need('recipient');
  const receipt: Receipt = {
    line: row,
    message: String(need('message').value),
    recipient: String(recipient.value).trim().replace(/^\+/, ''),
    status,
    at: timeOf(at.value, `row ${row}, column "${at.column}"`, options.timeZone),
    recipientColumn: recipient.column,
  };
  const received = pick('received');
  const sent = pick('sent');
  const text = pick('text');
  if (received !== undefined && present(received))
    receipt.received = timeOf(received.value, `row ${row}, column "${received.column}"`, options.timeZone);
  if (sent !== undefined && present(sent))
    receipt.sent = timeOf(sent.value, `row ${row}, column "${sent.column}"`, options.timeZone);
  if (text !== undefined && present(text)) receipt.text = String(text.value);
  return receipt;
}

/**
 * A delivery log's receipts: CSV with a header row (delimited by `,`, `;` or tab, whichever the header holds), or JSON
 * (an array of objects, or one under items, rows, deliveries or data). A status may be an SMPP receipt word.
 */
export function deliveryLogReceipts(text: string, options: DeliveryLogOptions = {}): Receipt[] {
  if (options.timeZone !== undefined && !isTimeZone(options.timeZone))
    throw new DeliveryLogError(
      `the time zone ${JSON.stringify(options.timeZone)} is not an IANA zone (such as Africa/Johannesburg)`,
    );
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
    if (list.length === 0) throw new DeliveryLogError('the delivery log has no receipts');
    return list.map((item, index) => {
      if (typeof item !== 'object' || item === null) throw new DeliveryLogError(`row ${index + 1}: not an object`);
      return receiptOf(item as Record<string, unknown>, index + 1, options);
    });
  }
  const [head, ...rows] = csvRows(text);
  if (head === undefined) throw new DeliveryLogError('the delivery log is empty');
  if (rows.every((cells) => cells.every((cell) => cell.trim() === '')))
    throw new DeliveryLogError('the delivery log has its header and no rows');
  const delimiter = delimiterOf(text);
  const named = (char: string): string => (char === '\t' ? 'tabs' : `"${char}"`);
  return rows.map((cells, index) => {
    // A row separated by another delimiter than the header is one long field: said so, not as its columns missing.
    const other = cells.length === 1 && head.length > 1 ? /[,;\t]/.exec(cells[0] as string)?.[0] : undefined;
    if (other !== undefined)
      throw new DeliveryLogError(
        `row ${index + 1} is separated by ${named(other)}, the header by ${named(delimiter)}: one delimiter for the whole log`,
      );
    return receiptOf(
      Object.fromEntries(head.map((name, column) => [name.trim(), (cells[column] ?? '').trim()])),
      index + 1,
      options,
    );
  });
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

/** Lateness below a second is a receipt's ordinary path (the network's), not a hold the replay keeps. */
const lateAfterMs = 1_000;
/** The emulator's own delay before `submitted`: the send assumed this long before a leg's first status when no send time is known. */
const assumedSubmitMs = 1_000;

/** A source as the scenario names it: an absolute path by its file name, so no machine's layout is written into it. */
function sourceName(source: string): string {
  return isAbsolute(source) ? basename(source) : source;
}

/** A receipt's place, in the log's own words: its row, and the column its recipient came from when known. */
function recipientPlace(receipt: Receipt): string {
  return `row ${receipt.line}${receipt.recipientColumn === undefined ? '' : `, column "${receipt.recipientColumn}"`}`;
}

/** Rows listed for a person: the first twenty, then how many more. */
function rowList(receipts: readonly Receipt[]): string {
  const shown = receipts.slice(0, 20).map((receipt) => receipt.line);
  return `${shown.join(', ')}${receipts.length > shown.length ? ` and ${receipts.length - shown.length} more` : ''}`;
}

/** One delivery behaviour seen on a number's notifications, before numbers seen alike are grouped. */
interface Observed {
  behaviour: DeliveryBehaviourName;
  status?: string;
  times?: number;
  after?: string;
}

/** Its name in the scenario, after what it is. */
function observedLabel(observed: Observed): string {
  if (observed.behaviour === 'reorder') return 'reordered';
  return `${observed.status} ${observed.behaviour === 'late' ? 'late' : 'duplicated'}`;
}

/** Behaviour rules for `observed` on `recipients`: one per number alone, else a regex of them up to the pattern limit. */
function behaviourRules(observed: Observed, recipients: readonly string[]): unknown[] {
  const { behaviour, status, ...parameters } = observed;
  const label = observedLabel(observed);
  const rule = (name: string, recipient: unknown) => ({
    name,
    behaviour,
    match: { recipient, ...(status === undefined ? {} : { status }) },
    ...parameters,
  });
  if (recipients.length === 1) return [rule(`incident: ${recipients[0]} ${label}`, recipients[0])];
  const chunks: string[][] = [[]];
  for (const recipient of recipients) {
    const chunk = chunks.at(-1) as string[];
    if (`^(?:${[...chunk, recipient].join('|')})$`.length > maxPatternLength) chunks.push([recipient]);
    else chunk.push(recipient);
  }
  return chunks.map((chunk) =>
    rule(`incident: ${label} (${chunk.length} numbers)`, { regex: `^(?:${chunk.join('|')})$` }),
  );
}

/** The scenario that reproduces `receipts` (from a transcript or a delivery log), named after `source`. */
export function incidentScenario(
  receipts: readonly Receipt[],
  source = 'an incident',
  options: IncidentOptions = {},
): IncidentScenario {
  const notes: string[] = [];
  const warnings: string[] = [];
  const refused = receipts.filter((receipt) => !isValidMsisdn(receipt.recipient));
  if (refused.length > 0 && options.strict)
    throw new DeliveryLogError(
      `${recipientPlace(refused[0] as Receipt)}: ${JSON.stringify((refused[0] as Receipt).recipient)} is not a number the API takes (27 followed by nine digits; it answers INVALID_RECIPIENT_ENTRY)${refused.length > 1 ? `, nor are those of rows ${rowList(refused.slice(1))}` : ''}`,
    );
  if (refused.length > 0)
    warnings.push(
      `skipped ${refused.length} row(s) whose recipient is not a number the API takes (27 followed by nine digits): rows ${rowList(refused)}; --strict refuses the log instead`,
    );
  const legs = new Map<string, Receipt[]>();
  const replies: Receipt[] = [];
  for (const given of receipts) {
    if (!isValidMsisdn(given.recipient)) continue;
    const status = statusOf(given.status);
    if (status === undefined)
      throw new DeliveryLogError(
        `row ${given.line}: status ${JSON.stringify(given.status)} is not one of ${legStatuses.join(', ')} or reply`,
      );
    const receipt = { ...given, status };
    if (status === 'reply') {
      replies.push(receipt);
      continue;
    }
    const key = `${receipt.message} ${receipt.recipient}`;
    legs.set(key, [...(legs.get(key) ?? []), receipt]);
  }
  const anySent = [...legs.values()].some((list) =>
    list.some((receipt) => receipt.sent !== undefined || receipt.status === 'pending'),
  );
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
        `message ${first.message} to ${first.recipient}: its statuses ${walk.map((step) => step.status).join(' → ')} are not a legal walk (${problem.problem}): rows ${rowList(list)}`,
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
  const seenAlike = new Map<string, { observed: Observed; recipients: string[] }>();
  const observe = (observed: Observed, recipient: string): void => {
    const key = JSON.stringify(observed);
    const entry = seenAlike.get(key) ?? { observed, recipients: [] };
    entry.recipients.push(recipient);
    seenAlike.set(key, entry);
  };
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
    for (const observed of observedOn(leg.receipts, recipient, notes)) observe(observed, recipient);
  }
  if (rules.length > scenarioBounds.rules)
    throw new DeliveryLogError(
      `the log shows ${rules.length} numbers, each its own rule; a scenario holds at most ${scenarioBounds.rules}: replay a part of the log at a time`,
    );
  const webhooks: unknown[] = [...seenAlike.values()].flatMap(({ observed, recipients }) =>
    behaviourRules(observed, recipients),
  );
  const orphans = built.filter((leg) => leg.orphan);
  for (const status of new Set(orphans.flatMap((leg) => leg.statuses.map((step) => step.status)))) {
    const count = orphans.filter((leg) => leg.statuses.some((step) => step.status === status)).length;
    webhooks.push({ name: `incident: orphan ${status}`, behaviour: 'orphan', match: { status }, count });
  }
  if (orphans.length > 0)
    notes.push(
      `${orphans.length} receipt(s) name a message the log never shows sent: replayed as orphans of the same status, after a notification of that status.`,
    );
  if (webhooks.length > scenarioBounds.webhooks)
    throw new DeliveryLogError(
      `the log shows ${webhooks.length} different delivery behaviours (holds, duplicates, reorders, orphans, by their status and times); a scenario holds at most ${scenarioBounds.webhooks}: replay a part of the log at a time`,
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
  if (replyRules.length > scenarioBounds.replies)
    throw new DeliveryLogError(
      `the log shows ${replyRules.length} replies; a scenario holds at most ${scenarioBounds.replies}: replay a part of the log at a time`,
    );
  const named = sourceName(source);
  const scenario = {
    version: 1,
    description: `Reproduces ${named}: ${byNumber.size} number(s), ${replyRules.length} reply(ies), ${webhooks.length} delivery behaviour(s).`,
    rules,
    replies: replyRules,
    webhooks,
  } as AccountScenarioInput;
  // What is written must load: checked here by the emulator's own reader, so a mistake is this module's, not the user's.
  validateScenario(scenario, named, undefined, accountScenarioSchema);
  return {
    scenario,
    source: named,
    legs: built.map(({ message, recipient, sentAt, statuses: steps }) => ({
      message,
      recipient,
      sentAt,
      statuses: steps,
    })),
    notes,
    warnings,
  };
}

/**
 * What a leg's notifications showed beyond its timeline: each status arriving a second or more after it happened
 * (late, held that long), more than once (duplicate, its copies as far apart as the first two were), and the
 * statuses arriving out of their order (reorder). Arrival is the `received` time, in its order when every receipt
 * has one, else the log's own row order at the status time.
 */
function observedOn(receipts: readonly Receipt[], recipient: string, notes: string[]): Observed[] {
  const timed = receipts.every((receipt) => receipt.received !== undefined);
  const arrival = (receipt: Receipt): number => receipt.received ?? receipt.at;
  const arrived = [...receipts]
    .filter((receipt) => receipt.status !== 'pending')
    .sort((a, b) => (timed ? arrival(a) - arrival(b) : 0) || a.line - b.line);
  const observed: Observed[] = [];
  const statusOrder = [...receipts]
    .filter((receipt) => receipt.status !== 'pending')
    .sort((a, b) => a.at - b.at || a.line - b.line)
    .map((receipt) => receipt.status);
  for (const status of new Set(statusOrder)) {
    const copies = arrived.filter((receipt) => receipt.status === status);
    const happened = Math.min(...copies.map((receipt) => receipt.at));
    const arrivals = copies.map(arrival).sort((a, b) => a - b);
    const hold = (arrivals[0] as number) - happened;
    if (hold >= lateAfterMs) observed.push({ behaviour: 'late', status, after: formatDuration(hold) });
    if (copies.length < 2) continue;
    const gaps = arrivals.slice(1).map((at, index) => at - (arrivals[index] as number));
    const gap = gaps[0] as number;
    observed.push({
      behaviour: 'duplicate',
      status,
      times: Math.min(copies.length, maxDeliveriesPerNotification),
      ...(gap > 0 ? { after: formatDuration(gap) } : {}),
    });
    if (gaps.some((each) => each !== gap) || copies.length > maxDeliveriesPerNotification)
      notes.push(
        `${recipient}'s ${status} arrived ${copies.length} times, ${gaps.map(formatDuration).join(', ')} apart; the scenario posts it ${Math.min(copies.length, maxDeliveriesPerNotification)} times, ${formatDuration(gap)} apart.`,
      );
  }
  const arrivalOrder = [...new Set(arrived.map((receipt) => receipt.status))];
  if (arrivalOrder.join() !== [...new Set(statusOrder)].join()) observed.push({ behaviour: 'reorder' });
  return observed;
}
