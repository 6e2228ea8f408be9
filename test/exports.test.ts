import { expect, expectTypeOf, test } from 'vitest';
import * as library from '../src/index.js';

test('the public surface is exactly the documented exports', () => {
  expect(Object.keys(library).sort()).toEqual([
    'ApiError',
    'SmsApiError',
    'canonicalString',
    'checkReceiver',
    'connect',
    'countSegments',
    'createClient',
    'createEmulator',
    'createWebhookCatcher',
    'deliveryLogReceipts',
    'emulatorTranscript',
    'errorCatalogue',
    'explainCost',
    'incidentScenario',
    'parityDiff',
    'parityRecheck',
    'parseTranscript',
    'receiverCheckNames',
    'signRequest',
    'startEmulator',
    'startRecorder',
    'transcriptReceipts',
  ]);
});

test('every input type of the handle is exported with its shape (a missing one fails the type check)', () => {
  expectTypeOf<library.AccountInput>().toMatchTypeOf<{ apiKey: string }>();
  expectTypeOf<library.AccountPatch>().toMatchTypeOf<{ live?: { balance?: number } }>();
  expectTypeOf<library.ClockCommand>().toMatchTypeOf<{ advance?: string | number }>();
  expectTypeOf<library.MessageFilter>().toMatchTypeOf<{ account?: string }>();
  expectTypeOf<library.ReplyInput>().toMatchTypeOf<{ text: string }>();
  expectTypeOf<library.WebhookChaosInput>().toMatchTypeOf<{ duplicateRate?: number }>();
  expectTypeOf<library.WebhookFilterInput>().toMatchTypeOf<{ message?: string }>();
  expectTypeOf<library.ScenarioInput>().toMatchTypeOf<{ version: 1 }>();
  expectTypeOf<library.WaitOptions>().toMatchTypeOf<{ within?: string | number }>();
  expectTypeOf<library.StartOptions>().toMatchTypeOf<{ stopGraceMs?: number }>();
  expectTypeOf<library.ClientOptions>().toMatchTypeOf<{ baseUrl: string }>();
  expectTypeOf<library.WebhookAnswer>().toMatchTypeOf<{ status: number; body?: string }>();
});
