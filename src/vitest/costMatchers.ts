/** The cost matchers for vitest's expect: toStayGsm7, toFitSegments and toCostAtMost, whose failures show why a text costs what it costs. */

import { type CostExplanation, explainCost } from '../domain/costExplanation.js';
import type { MessageView } from '../domain/messageView.js';

/** A text as the cost matchers read it: the text itself, or a message object (the API's or the control API's). */
export type CostSubject = string | { readonly message: string };

/** What `toCostAtMost` reads: the test's messages (at once in process, or a promise over HTTP). */
export interface SpendSubject {
  readonly account: { readonly apiKey: string };
  messages(): MessageView[] | Promise<MessageView[]>;
}

export interface CostMatchers<R = unknown> {
  /** The text (or the message's text) stays GSM-7; a failure names each character that forced UCS-2, where, and what was meant. */
  toStayGsm7(): R;
  /** The text (or the message's text) is sent in at most `segments` parts; a failure shows the encoding, units and triggers. */
  toFitSegments(segments: number): R;
  /**
   * The test's account spent at most `credits` on the messages it sent; a failure lists the top spenders with why each
   * cost what it did. Awaitable in both modes.
   * @example await expect(sms).toCostAtMost(3);
   */
  toCostAtMost(credits: number): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- vitest's own declaration shape
  interface Matchers<T = any> extends CostMatchers<T> {}
}

interface Result {
  pass: boolean;
  message: () => string;
}

interface MatcherThis {
  isNot: boolean;
}

function textOf(subject: CostSubject): string {
  if (typeof subject === 'string') return subject;
  if (typeof subject === 'object' && subject !== null && typeof subject.message === 'string') return subject.message;
  throw new TypeError('sms-emulator: a cost matcher takes a text or a message object (with its text in `message`).');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The breakdown every cost failure shows: encoding, units, segments, each trigger with its position and what was meant, the fix. */
export function costBreakdown(text: string, explained: CostExplanation = explainCost(text)): string {
  const excerpt = [...text].length > 80 ? `${[...text].slice(0, 80).join('')}…` : text;
  const head = `${explained.encoding}, ${explained.units} ${explained.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}, ${plural(explained.segments, 'segment')}: ${JSON.stringify(excerpt)}`;
  const triggers = explained.triggers
    .slice(0, 10)
    .map(
      (trigger) =>
        `\n  position ${trigger.position}: ${JSON.stringify(trigger.char)} ${trigger.codePoint}${trigger.name === null ? '' : ` ${trigger.name}`}${trigger.suggestion === null ? ' (no GSM-7 equivalent)' : `, use ${JSON.stringify(trigger.suggestion)}`}`,
    )
    .join('');
  const more = explained.triggers.length > 10 ? `\n  … and ${explained.triggers.length - 10} more` : '';
  const fix =
    explained.fix === null
      ? ''
      : `\n  with those replaced: ${explained.fix.encoding}, ${plural(explained.fix.segments, 'segment')}`;
  return `${head}${triggers}${more}${fix}`;
}

function spendLine(message: MessageView): string {
  const why = explainCost(message.message, { recipients: message.recipient.length });
  const forced =
    why.triggers[0] === undefined
      ? ''
      : `; UCS-2 forced by ${JSON.stringify(why.triggers[0].char)} at ${why.triggers[0].position}`;
  return `\n  - ${plural(message.credit, 'credit')}: to ${message.recipient.join(', ')}: ${JSON.stringify(message.message.slice(0, 60))} (${why.encoding}, ${plural(why.segments, 'segment')} × ${plural(message.recipient.length, 'recipient')}${forced})`;
}

function spendResult(subject: SpendSubject, budget: number, messages: MessageView[], isNot: boolean): Result {
  const spent = messages.reduce((sum, message) => sum + message.credit, 0);
  const top = [...messages].sort((a, b) => b.credit - a.credit).slice(0, 5);
  return {
    pass: spent <= budget,
    message: () =>
      `expected account ${subject.account.apiKey} ${isNot ? 'not ' : ''}to cost at most ${plural(budget, 'credit')}; it spent ${spent} on ${plural(messages.length, 'message')}. Top spenders:${top.length === 0 ? ' none' : top.map(spendLine).join('')}`,
  };
}

export const costMatchers = {
  toStayGsm7(this: MatcherThis, subject: CostSubject): Result {
    const text = textOf(subject);
    const explained = explainCost(text);
    return {
      pass: explained.encoding === 'GSM-7',
      message: () =>
        `expected the text ${this.isNot ? 'not ' : ''}to stay GSM-7; it is ${costBreakdown(text, explained)}`,
    };
  },

  toFitSegments(this: MatcherThis, subject: CostSubject, segments: number): Result {
    if (!Number.isInteger(segments) || segments < 1)
      throw new TypeError(`sms-emulator: toFitSegments takes a whole number of segments from 1, not ${segments}.`);
    const text = textOf(subject);
    const explained = explainCost(text);
    return {
      pass: explained.segments <= segments,
      message: () =>
        `expected the text ${this.isNot ? 'not ' : ''}to fit ${plural(segments, 'segment')}; it is ${costBreakdown(text, explained)}`,
    };
  },

  toCostAtMost(this: MatcherThis, subject: SpendSubject, credits: number): Result | Promise<Result> {
    if (!Number.isInteger(credits) || credits < 0)
      throw new TypeError(`sms-emulator: toCostAtMost takes a whole number of credits from 0, not ${credits}.`);
    const messages = subject.messages();
    return messages instanceof Promise
      ? messages.then((list) => spendResult(subject, credits, list, this.isNot))
      : spendResult(subject, credits, messages, this.isNot);
  },
};
