/** creditCauses: a credit difference named on the request that caused it, or on the refused sends that could have. */

import { expect, test } from 'vitest';
import { creditCauses } from '../../src/parity/creditCauses.js';
import type { Replayed } from '../../src/parity/replay.js';
import { type AnswerLine, type RequestLine, parseTranscript } from '../../src/parity/transcript.js';
import { everyOperationSession, sessionTranscript } from '../support/paritySession.js';

test('a balance difference with no charge measured (a recheck) names each refused send between the reads', async () => {
  const transcript = parseTranscript(await sessionTranscript(everyOperationSession));
  const requests = new Map<string, RequestLine>();
  const answers: Replayed['answers'] = new Map();
  const refusedSends: number[] = [];
  let badNumber = Number.POSITIVE_INFINITY;
  transcript.events.forEach((event, index) => {
    const line = transcript.lines[index] as number;
    if (event.type === 'request') requests.set(event.id, event);
    if (event.type !== 'answer') return;
    const request = requests.get(event.request) as RequestLine;
    if ((request.body as { message?: unknown } | undefined)?.message === 'bad number') badNumber = line;
    // The provider now: the same answers, but the malformed number's send was not charged (each later read 1 higher).
    const body = event.body as { balance?: unknown } | undefined;
    const now: AnswerLine =
      line > badNumber && typeof body?.balance === 'number'
        ? { ...event, body: { ...body, balance: body.balance + 1 } }
        : event;
    answers.set(event.request, now);
    if (request.method === 'POST' && event.status >= 400) refusedSends.push(line);
  });
  const { findings } = creditCauses(transcript, {
    answers,
    webhooks: [],
    unmatchedReplies: [],
    limits: { batchLimit: 100, messageLimit: 918 },
  });
  expect(findings).toHaveLength(1);
  const [finding] = findings as [(typeof findings)[number]];
  expect(finding).toMatchObject({ kind: 'credit-changed', field: 'answer.body.balance' });
  const between = refusedSends.filter((line) => line < finding.line);
  expect(between).toContain(badNumber);
  expect(finding.message).toContain(`at line ${badNumber}`);
  for (const line of between) expect(finding.message).toContain(`POST /v1/messages at line ${line}`);
});
