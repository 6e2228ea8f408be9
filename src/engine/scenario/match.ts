/** Compiles scenario matchers and outcomes into plain functions and timelines, once, at load. */

import { type DeliveryOutcome, type Environment, type MessageRecord, deliveryOutcomes } from '../../domain/message.js';
import { parseDuration } from '../../domain/time.js';
import type { Random } from '../../state/random.js';
import { type Timeline, defaultTimeline } from '../outcomes.js';
import { compileGlob, compileRegex } from './pattern.js';
import type { MessageMatch, OutcomeSpec } from './schema.js';

export interface MatchSubject {
  message: MessageRecord;
  recipient: string;
  environment: Environment;
}

export type Matcher = (subject: MatchSubject) => boolean;

type TextMatch = NonNullable<MessageMatch['text']>;
type RecipientMatch = NonNullable<MessageMatch['recipient']>;

function textTest(spec: TextMatch): (text: string | null) => boolean {
  if (typeof spec === 'string') return (text) => text !== null && text.includes(spec);
  const regex = spec.regex === undefined ? undefined : compileRegex(spec.regex);
  return (text) =>
    text !== null &&
    (spec.exact === undefined || text === spec.exact) &&
    (spec.contains === undefined || text.includes(spec.contains)) &&
    (regex === undefined || regex(text));
}

/** One recipient matcher, for rules and replies (a leg's number) and faults (a send's numbers). */
export function recipientTest(spec: RecipientMatch): (number: string) => boolean {
  if (typeof spec === 'string') return compileGlob(spec);
  const glob = spec.glob === undefined ? undefined : compileGlob(spec.glob);
  const regex = spec.regex === undefined ? undefined : compileRegex(spec.regex);
  return (number) =>
    (spec.exact === undefined || number === spec.exact) &&
    (spec.prefix === undefined || number.startsWith(spec.prefix)) &&
    (glob === undefined || glob(number)) &&
    (regex === undefined || regex(number));
}

export function compileMatch(spec: MessageMatch): Matcher {
  const recipient = spec.recipient === undefined ? undefined : recipientTest(spec.recipient);
  const text = spec.text === undefined ? undefined : textTest(spec.text);
  const reference = spec.clientReference === undefined ? undefined : textTest(spec.clientReference);
  return ({ message, recipient: number, environment }) =>
    (spec.environment === undefined || spec.environment === environment) &&
    (spec.account === undefined || spec.account === message.apiKey) &&
    (recipient === undefined || recipient(number)) &&
    (text === undefined || text(message.text)) &&
    (reference === undefined || reference(message.clientReference));
}

/** The usual timeline of each named outcome. */
export const namedTimelines: Readonly<Record<DeliveryOutcome, Timeline>> = {
  delivered: defaultTimeline,
  undelivered: [
    { status: 'submitted', afterMs: 1_000 },
    { status: 'undelivered', afterMs: 4_000 },
  ],
  // Submitted and never heard of again: the validity period turns it into expired.
  expired: [{ status: 'submitted', afterMs: 1_000 }],
  blist: [{ status: 'blist', afterMs: 1_000 }],
  noroute: [{ status: 'noroute', afterMs: 1_000 }],
  failed: [{ status: 'failed', afterMs: 1_000 }],
};

/** The usual timeline of the outcome `name`, or undefined when it names none. */
export function namedTimeline(name: string): Timeline | undefined {
  return (deliveryOutcomes as readonly string[]).includes(name) ? namedTimelines[name as DeliveryOutcome] : undefined;
}

function stepsOf(steps: readonly { status: string; after: string | number }[]): Timeline {
  return steps.map((entry) => ({
    status: entry.status as Timeline[number]['status'],
    afterMs: parseDuration(entry.after) ?? 0,
  }));
}

/** A function drawing one timeline per leg (weighted choices use the seeded generator). */
export function compileOutcome(spec: OutcomeSpec, random: Random): () => Timeline {
  if (typeof spec === 'string') {
    const fixed = namedTimelines[spec];
    return () => fixed;
  }
  if ('timeline' in spec) {
    const fixed = stepsOf(spec.timeline);
    return () => fixed;
  }
  const choices = spec.choose.map((choice) => ({
    weight: choice.weight,
    timeline: choice.outcome !== undefined ? namedTimelines[choice.outcome] : stepsOf(choice.timeline ?? []),
  }));
  const total = choices.reduce((sum, choice) => sum + choice.weight, 0);
  return () => {
    let draw = random.next() * total;
    for (const choice of choices) {
      draw -= choice.weight;
      if (draw < 0) return choice.timeline;
    }
    return (choices[choices.length - 1] as (typeof choices)[number]).timeline;
  };
}
