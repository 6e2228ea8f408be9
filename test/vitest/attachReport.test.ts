import { type TestContext, expect, test } from 'vitest';
import { createEmulator } from '../../src/index.js';
import { attachReport } from '../../src/vitest/attachReport.js';

/** An `annotate` that records its calls. */
function recorder() {
  const attached: unknown[][] = [];
  const annotate = (async (...args: unknown[]) => {
    attached.push(args);
  }) as unknown as TestContext['annotate'];
  return { attached, annotate };
}

test("attaches the emulator's HTML timeline of the test's account", async () => {
  const emulator = createEmulator({ clock: 'manual', seed: 'report' });
  const { attached, annotate } = recorder();
  await attachReport(emulator, 'pk_test_sms_emulator', annotate);
  expect(attached).toHaveLength(1);
  expect(attached[0]?.[0]).toBe('sms-emulator timeline of pk_test_sms_emulator');
  expect(attached[0]?.[2]).toMatchObject({ contentType: 'text/html', body: expect.stringContaining('<html') });
});

test('does nothing when the emulator has no report()', async () => {
  const { attached, annotate } = recorder();
  await attachReport({}, 'pk_x', annotate);
  expect(attached).toEqual([]);
});
