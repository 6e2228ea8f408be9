/**
 * Credit budgets of `createSmsTest`: a test's, which fails the test whose account spent more, and a suite's, which fails
 * the suite at its end naming the tests that spent most. Both read the emulator's `accounts.spend`, so a budget failure
 * says what `toCostAtMost` and the kits say.
 */

import { plural } from '../domain/plural.js';
import type { Spend } from '../domain/spend.js';

/** The credit budgets of a `createSmsTest`: whole credits from 0; no budget when left out (the default). */
export interface SmsBudget {
  /** The most credits each test's account may spend; a test that spent more fails with its top spenders. A test's `smsWorld.budget` overrides it. */
  test?: number;
  /** The most credits the tests of this `createSmsTest` (its file, or the describe block it is called in) may spend together; more fails the suite at its end, naming the tests that spent most. */
  suite?: number;
}

/** How many of a suite's costliest tests its failure names. */
const namedTests = 5;

/** A budget as given: a whole number of credits from 0, or a TypeError naming where it was set. */
export function checkedBudget(budget: number | undefined, where: string): number | undefined {
  if (budget === undefined) return undefined;
  if (!Number.isInteger(budget) || budget < 0)
    throw new TypeError(`sms-emulator: ${where} takes a whole number of credits from 0, not ${budget}.`);
  return budget;
}

/** The one wording of a spend over a budget: `expected <who> to cost at most 3 credits; it spent 5 credits on …`. */
export function overBudget(who: string, budget: number, spend: Spend): string {
  return `expected ${who} to cost at most ${plural(budget, 'credit')}; it ${spend.summary}`;
}

/** What a suite's tests spent, each added as it ends, held to the suite's budget at the suite's end. */
export class SuiteSpending {
  private readonly tests: { name: string; spend: Spend }[] = [];

  constructor(private readonly budget: number) {}

  add(name: string, spend: Spend): void {
    this.tests.push({ name, spend });
  }

  /** Throws when the suite's tests spent more than its budget, naming its costliest tests with each one's costliest message. */
  check(): void {
    const credits = this.tests.reduce((sum, test) => sum + test.spend.credits, 0);
    if (credits <= this.budget) return;
    const ranked = [...this.tests].sort((a, b) => b.spend.credits - a.spend.credits).slice(0, namedTests);
    const lines = ranked.map(
      ({ name, spend }) =>
        `\n  - ${plural(spend.credits, 'credit')}: ${name}${spend.top[0] === undefined ? '' : `; costliest: ${spend.top[0].line}`}`,
    );
    throw new Error(
      `sms-emulator: expected the suite to cost at most ${plural(this.budget, 'credit')} (createSmsTest budget.suite); its ${plural(this.tests.length, 'test')} spent ${plural(credits, 'credit')}. Top spenders:${lines.join('')}`,
    );
  }
}
