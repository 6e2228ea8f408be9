// The requests the benchmarks send: Basic auth of the default account and signed send bodies.
import { createHmac } from 'node:crypto';

export const authorization = `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}`;
const signingSecret = 'sk_test_sms_emulator';

/** A signed single-recipient send; `i` varies recipient and text so lists have something to filter. */
export function sendRequest(i = 0) {
  const recipient = String(27_830_000_000 + (i % 100_000));
  const message = `Benchmark message ${i}`;
  const canonical = `message=${encodeURIComponent(message)}&recipient[]=${recipient}`;
  return {
    method: 'POST',
    path: '/v1/messages',
    headers: {
      authorization,
      'content-type': 'application/json',
      signature: createHmac('sha256', signingSecret).update(canonical).digest('hex'),
    },
    body: JSON.stringify({ recipient: [recipient], message }),
  };
}

export const balanceRequest = { method: 'GET', path: '/v1/messages/balance', headers: { authorization } };
