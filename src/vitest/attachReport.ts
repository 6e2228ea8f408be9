/** On a failed test, records the emulator's timeline of the test's account as a vitest artifact with the HTML page attached. */

import { type RunnerTestCase, type TestArtifact, recordArtifact } from 'vitest';

/** An emulator that may offer `report()` (both handles the fixture uses do; another one is left alone). */
export interface MaybeReporting {
  report?: (options: { account: string }) => string | Promise<string>;
}

/** The artifact the fixture records on a failed test: the timeline of its account, as an HTML attachment. */
export interface TimelineArtifact {
  type: 'sms-emulator:timeline';
  /** The test's account. */
  account: string;
  attachments: [{ contentType: 'text/html'; body: string; bodyEncoding: 'utf-8' }];
}

declare module 'vitest' {
  interface TestArtifactRegistry {
    'sms-emulator:timeline': TimelineArtifact;
  }
}

/**
 * Records the HTML timeline of `account` on `task` (vitest's UI, HTML reporter and `testCase.artifacts()` show it).
 * Called after the test ended: `annotate` is refused then, an artifact is not. Best effort: the test already failed
 * for its own reason, and a report that cannot be written must not add a second error to it.
 */
export async function attachReport(emulator: MaybeReporting, account: string, task: RunnerTestCase): Promise<void> {
  if (typeof emulator.report !== 'function') return;
  let body: string;
  try {
    body = await emulator.report({ account });
  } catch {
    return;
  }
  const artifact: TimelineArtifact = {
    type: 'sms-emulator:timeline',
    account,
    attachments: [{ contentType: 'text/html', body, bodyEncoding: 'utf-8' }],
  };
  await recordArtifact(task, artifact as TestArtifact);
}
