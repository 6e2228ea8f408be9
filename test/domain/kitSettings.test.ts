/** The settings every front door shares: the duration grammar a kit's setting is read with. */

import { expect, test } from 'vitest';
import { kitDurationProblem, kitSettings, parseKitDuration } from '../../src/domain/kitSettings.js';

test('2m is two minutes and a bare number is seconds in a front door setting', () => {
  expect(parseKitDuration('2m')).toBe(120_000);
  expect(parseKitDuration('120')).toBe(120_000);
  expect(parseKitDuration('1h30m')).toBe(5_400_000);
  expect(parseKitDuration('500ms')).toBe(500);
});

test('a setting that is not a positive duration is refused, never read as another one', () => {
  for (const text of ['2 m', '2min', '2M', 'PT2M', '-1s', '0', '0s', '1e3', '', '36501d'])
    expect(parseKitDuration(text), text).toBeUndefined();
});

test('every default is a valid duration and the problem text names the setting and what it was given', () => {
  for (const setting of Object.values(kitSettings)) expect(parseKitDuration(setting.default)).toBeGreaterThan(0);
  expect(kitDurationProblem('SMS_EMULATOR_START_TIMEOUT', '2x')).toMatch(
    /^sms-emulator: SMS_EMULATOR_START_TIMEOUT="2x" is not a duration/,
  );
});
