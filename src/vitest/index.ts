/** `sms-emulator/vitest`: the vitest fixture and matchers; importing it registers the matchers. */

import { expect } from 'vitest';
import { costMatchers } from './costMatchers.js';
import { smsMatchers } from './matchers.js';

expect.extend(smsMatchers);
expect.extend(costMatchers);

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
export type { SmsWorldActs } from './worldActs.js';
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
/** toStayGsm7, toFitSegments and toCostAtMost: failures show why a text costs what it costs. */
export { costMatchers } from './costMatchers.js';
export type { CostMatchers, CostSubject, SpendSubject } from './costMatchers.js';
export type { SmsBudget } from './creditBudgets.js';
