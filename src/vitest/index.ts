/** `sms-emulator/vitest`: the vitest fixture and matchers; importing it registers the matchers. */

import { expect } from 'vitest';
import { smsMatchers } from './matchers.js';

expect.extend(smsMatchers);

export { createSmsTest } from './smsTest.js';
export type {
  SmsContext,
  SmsEmulator,
  SmsScenario,
  SmsTestAPI,
  SmsTestOptions,
  SmsWebhookHandler,
  SmsWorldOptions,
} from './smsTest.js';
export { smsGlobalSetup } from './globalSetup.js';
export type { ProvidedEmulator } from './globalSetup.js';
export { smsMatchers } from './matchers.js';
export type {
  MatcherEmulator,
  RequestExpectation,
  SentExpectation,
  SmsMatchers,
  SmsSubject,
  StatusSubject,
  WebhookExpectation,
} from './matchers.js';
export type { TimelineArtifact } from './attachReport.js';
