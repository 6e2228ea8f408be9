/** Test helpers for the user outcome decider: timelines written short, and a decider that tells recipients apart. */

import type { OutcomeDecider, Timeline, TimelineStep } from '../../src/index.js';

/** `steps(['submitted', 1000], ['delivered', 4000])`: each status the given milliseconds after the previous step. */
export function steps(...entries: [TimelineStep['status'], number][]): Timeline {
  return entries.map(([status, afterMs]) => ({ status, afterMs }));
}

/** Numbers ending in 7 follow `endingIn7`, every other number `others`: legs of one message that move apart. */
export function byLastDigit(endingIn7: Timeline, others: Timeline): OutcomeDecider {
  return ({ recipient }) => (recipient.endsWith('7') ? endingIn7 : others);
}
