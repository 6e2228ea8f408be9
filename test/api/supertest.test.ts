/** The node request listener works with supertest directly, as the README shows. */

import request from 'supertest';
import { expect, test } from 'vitest';
import { createEmulator, signRequest } from '../../src/index.js';

test('supertest drives the emulator through its request listener without listening', async () => {
  const emulator = createEmulator({ clock: 'manual', seed: 'supertest', startTime: '2026-11-21T10:00:00Z' });
  const body = { recipient: ['27831234567'], message: 'Hi', schedule: '2026-11-22T09:30' };
  const sent = await request(emulator.requestListener)
    .post('/v1/messages')
    .auth('pk_test_sms_emulator', '')
    .set('Signature', signRequest(body, 'sk_test_sms_emulator'))
    .send(body)
    .expect(201)
    .expect('content-type', /application\/json/);
  expect(sent.body).toMatchObject({ status: 'scheduled', schedule: '2026-11-22T09:30:00+02:00' });
  expect(sent.body._links.self.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/messages\//);
  await emulator.clock.set('2026-11-22T09:30:05+02:00');
  expect(emulator.messages.get(sent.body.id).status).toBe('delivered');
  const balance = await request(emulator.requestListener)
    .get('/v1/messages/balance')
    .auth('pk_test_sms_emulator', '')
    .expect(200);
  expect(balance.body).toEqual({
    balance: 999,
    documentation_url: expect.stringMatching(/\/_emulator\/docs\/messages#get-balance$/),
  });
});
