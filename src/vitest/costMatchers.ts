/** The cost matchers for vitest's expect: toStayGsm7, toFitSegments and toCostAtMost, whose failures show why a text costs what it costs. */

import { explainCost } from '../domain/costExplanation.js';
import { plural } from '../domain/plural.js';
import type { Spend } from '../domain/spend.js';
import { checkedBudget, overBudget } from './creditBudgets.js';

/** A text as the cost matchers read it: the text itself, or a message object (the API's or the control API's). */
export type CostSubject = string | { readonly message: string };

/** What `toCostAtMost` reads: the test's account and the emulator that answers its spend (at once in process, or a promise over HTTP). */
export interface SpendSubject {
  readonly account: { readonly apiKey: string };
  readonly emulator: { readonly accounts: { spend(apiKey: string): Spend | Promise<Spend> } };
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

function spendResult(budget: number, spend: Spend, isNot: boolean): Result {
  return {
    pass: spend.credits <= budget,
    message: () => overBudget(`account ${spend.account}${isNot ? ' not' : ''}`, budget, spend),
  };
}

export const costMatchers = {
  toStayGsm7(this: MatcherThis, subject: CostSubject): Result {
    const text = textOf(subject);
    const explained = explainCost(text);
    return {
      pass: explained.encoding === 'GSM-7',
      message: () => `expected the text ${this.isNot ? 'not ' : ''}to stay GSM-7; it is ${explained.breakdown}`,
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
        `expected the text ${this.isNot ? 'not ' : ''}to fit ${plural(segments, 'segment')}; it is ${explained.breakdown}`,
    };
  },

  toCostAtMost(this: MatcherThis, subject: SpendSubject, credits: number): Result | Promise<Result> {
    checkedBudget(credits, 'toCostAtMost');
    const spend = subject.emulator.accounts.spend(subject.account.apiKey);
    return spend instanceof Promise
      ? spend.then((answer) => spendResult(credits, answer, this.isNot))
      : spendResult(credits, spend, this.isNot);
  },
};
