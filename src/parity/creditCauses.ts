/**
 * Names a credit difference on the request that caused it. A balance read only shows that credits went another way
 * since the last read; what each side charged in between (the sends' `credit`, and the emulator's own charge for each
 * request) tells which request it was: a refused send the emulator charged and the provider did not is found on the
 * send (without the charges, as in a recheck, the read names the refused sends in between), and a read whose difference the sends' credits already explain adds no finding of its own.
 */

import type { Environment } from '../domain/environment.js';
import type { RawFinding } from './groupFindings.js';
import type { Replayed } from './replay.js';
import type { AnswerLine, RequestLine, Transcript } from './transcript.js';

/** A request answered since the last balance read, with what each side says it cost. */
interface Since {
  request: RequestLine;
  line: number;
  refused: boolean;
  /** The transcript's `credit` less the emulator's, when both answers carry one. */
  creditDifference: number;
  /** What the emulator charged for it (0 when the replay did not measure it). */
  charge: number;
}

function numberField(answer: AnswerLine | undefined, name: string): number | undefined {
  const body = answer?.body as Record<string, unknown> | undefined;
  const value = answer !== undefined && answer.status < 300 ? body?.[name] : undefined;
  return typeof value === 'number' ? value : undefined;
}

const plural = (count: number): string => `${count} credit${count === 1 ? '' : 's'}`;

export interface CreditCauses {
  findings: RawFinding[];
  /** The balance reads judged here: their `answer.body.balance` differences are replaced by the findings above. */
  reads: Set<number>;
}

/** The credit differences of a session, each on the request that caused it where the transcript tells which. */
export function creditCauses(transcript: Transcript, replayed: Replayed): CreditCauses {
  const findings: RawFinding[] = [];
  const reads = new Set<number>();
  const requests = new Map<string, RequestLine>();
  const last = new Map<Environment, { recorded: number; emulator: number; line: number }>();
  const since = new Map<Environment, Since[]>();
  transcript.events.forEach((event, index) => {
    const line = transcript.lines[index] as number;
    if (event.type === 'account' && !last.has(event.environment))
      last.set(event.environment, { recorded: event.balance, emulator: event.balance, line });
    if (event.type === 'request') requests.set(event.id, event);
    if (event.type !== 'answer') return;
    const request = requests.get(event.request);
    const answer = replayed.answers.get(event.request);
    if (request === undefined || answer === undefined) return;
    const environment = request.environment;
    const [recorded, emulator] = [numberField(event, 'balance'), numberField(answer, 'balance')];
    if (recorded === undefined || emulator === undefined) {
      const [creditA, creditB] = [numberField(event, 'credit'), numberField(answer, 'credit')];
      since.set(environment, [
        ...(since.get(environment) ?? []),
        {
          request,
          line,
          refused: event.status >= 400,
          // A send's credit is its charge; a read of the message (GET) charges nothing.
          creditDifference:
            request.method === 'POST' && creditA !== undefined && creditB !== undefined ? creditA - creditB : 0,
          charge: replayed.charges?.get(event.request) ?? 0,
        },
      ]);
      return;
    }
    reads.add(line);
    const before = last.get(environment);
    const between = since.get(environment) ?? [];
    last.set(environment, { recorded, emulator, line });
    since.set(environment, []);
    const path = request.path;
    if (before === undefined) {
      if (recorded !== emulator)
        findings.push({
          kind: 'credit-changed',
          line,
          field: 'answer.body.balance',
          message: `credits differ: the transcript has ${recorded}, the emulator ${emulator}`,
          recorded,
          emulator,
          path,
        });
      return;
    }
    // How many credits more the provider took than the emulator since the last read, less what the sends' credits say.
    const [spentA, spentB] = [before.recorded - recorded, before.emulator - emulator];
    if (spentA === spentB) return;
    const residual = spentA - spentB - between.reduce((sum, item) => sum + item.creditDifference, 0);
    if (residual === 0) return;
    const refused = between.filter((item) => item.refused);
    const charged = refused.filter((item) => item.charge > 0);
    const what = (item: Since): string => `${item.request.method} ${item.request.path} (refused)`;
    if (charged.length > 0 && charged.reduce((sum, item) => sum + item.charge, 0) === -residual)
      for (const item of charged)
        findings.push({
          kind: 'credit-changed',
          line: item.line,
          field: 'answer.charge',
          message: `credits differ: ${what(item)}: the emulator charged ${plural(item.charge)}, the provider none (its balance at line ${line} shows it)`,
          recorded: 0,
          emulator: item.charge,
          path: item.request.path,
        });
    else if (refused.length === 1) {
      const item = refused[0] as Since;
      findings.push({
        kind: 'credit-changed',
        line: item.line,
        field: 'answer.charge',
        message: `credits differ: ${what(item)}: the provider charged ${plural(item.charge + residual)}, the emulator ${plural(item.charge)} (its balance at line ${line} shows it)`,
        recorded: item.charge + residual,
        emulator: item.charge,
        path: item.request.path,
      });
    } else {
      // Without each side's charge (a recheck cannot measure the provider's), the refused sends in between are named.
      const sends = refused.filter((item) => item.request.method === 'POST');
      const named =
        sends.length === 0
          ? ''
          : `; the refused send${sends.length === 1 ? '' : 's'} in between, one of which the sides charged differently: ${sends.map((item) => `${item.request.method} ${item.request.path} at line ${item.line}`).join(', ')}`;
      findings.push({
        kind: 'credit-changed',
        line,
        field: 'answer.body.balance',
        message: `credits differ since line ${before.line}: the transcript's balance went down by ${spentA}, the emulator's by ${spentB}${named}`,
        recorded,
        emulator,
        path,
      });
    }
  });
  return { findings, reads };
}
