/** On a failed test, attaches the emulator's timeline of the test's account, when the emulator can write one. */

import type { TestContext } from 'vitest';

/** An emulator that may offer `report()` (in process it does; a handle that cannot is left alone). */
export interface MaybeReporting {
  report?: (options: { account: string }) => string | Promise<string>;
}

/** Attaches the HTML timeline of `account` to the test through `annotate`; does nothing when the emulator has no `report`. */
export async function attachReport(emulator: MaybeReporting, account: string, annotate: TestContext['annotate']): Promise<void> {
  if (typeof emulator.report !== 'function') return;
  const body = await emulator.report({ account });
  await annotate(`sms-emulator timeline of ${account}`, 'sms-emulator', { body, contentType: 'text/html', bodyEncoding: 'utf-8' });
}
