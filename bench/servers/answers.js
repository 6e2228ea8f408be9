// The JSON the baseline servers answer: the same shapes the emulator answers for balance and send.
import { randomUUID } from 'node:crypto';

export const apiKey = 'pk_test_sms_emulator';

/** True when an Authorization header is HTTP Basic with the default API key as username. */
export function authorized(header) {
  if (!header || !header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return decoded.slice(0, decoded.indexOf(':')) === apiKey;
}

export function balanceJson(origin) {
  return JSON.stringify({ balance: 1000, documentation_url: `${origin}/_emulator/docs/messages#get-balance` });
}

/** A send answer for parsed body fields, with a fresh id and creation date like the emulator's. */
export function messageJson(origin, fields) {
  const id = randomUUID();
  return JSON.stringify({
    id,
    type: 'sms',
    recipient: fields.recipient,
    message: fields.message,
    client_reference: null,
    schedule: null,
    status: 'pending',
    credit: 1,
    creation_date: `${new Date().toISOString().slice(0, 19)}+00:00`,
    delivery_date: null,
    _links: { self: { href: `${origin}/v1/messages/${id}`, method: 'GET' } },
    documentation_url: `${origin}/_emulator/docs/messages#send-message`,
  });
}

export const unauthorizedJson = JSON.stringify({ message: 'UNAUTHORIZED' });
