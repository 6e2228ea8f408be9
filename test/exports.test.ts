import { expect, test } from 'vitest';
import * as library from '../src/index.js';

test('the public surface is exactly the documented exports', () => {
  expect(Object.keys(library).sort()).toEqual([
    'ApiError',
    'SmsApiError',
    'canonicalString',
    'countSegments',
    'createClient',
    'createEmulator',
    'createWebhookCatcher',
    'errorCatalogue',
    'signRequest',
    'startEmulator',
  ]);
});
