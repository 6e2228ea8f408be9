import { expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { apiKey, call, makeEmulator, prefix, scheduleIn, send, type Environment } from '../support/api.js';

// The list queries read indexes (the status column, each account's positions, the text prefilters)
// instead of every record; these tests check them against the messages themselves at every step.

const other = { key: 'pk_test_other', secret: 'sk_other' };
const statuses = [
  'delivered',
  'undelivered',
  'expired',
  'blist',
  'submitted',
  'staged',
  'cancelled',
  'noroute',
  'failed',
  'pending',
  'scheduled',
  'deleted',
];

interface Sent {
  id: string;
  environment: Environment;
}

/** Every message still stored, newest first (sandbox before live, as control lists show them), read one by one. */
async function truth(emulator: Emulator, sent: readonly Sent[]) {
  const views = [];
  for (const { id } of sent) {
    try {
      views.push(await emulator.messages.get(id));
    } catch {
      // its account was deleted
    }
  }
  const order = (environment: string) => (environment === 'sandbox' ? 0 : 1);
  return views.reverse().sort((a, b) => order(a.environment) - order(b.environment));
}

async function expectListsAgree(emulator: Emulator, sent: readonly Sent[]) {
  const all = await truth(emulator, sent);
  const ids = (views: { id: string }[]) => views.map((view) => view.id);
  for (const environment of ['live', 'sandbox'] as const) {
    for (const key of [apiKey, other.key]) {
      for (const status of [undefined, ...statuses]) {
        const expected = all.filter(
          (view) =>
            view.environment === environment &&
            view.account === key &&
            (status === undefined || view.status === status),
        );
        const control = emulator.messages.list({ environment, account: key, ...(status && { status }), limit: 1000 });
        expect(ids(control.items), `control ${environment} ${key} ${status}`).toEqual(ids(expected));
        expect(control.total).toBe(expected.length);
        if (status === 'deleted') continue;
        const visible = expected.filter((view) => view.status !== 'deleted');
        const api = async (query: string) => {
          const reply = await call(
            emulator,
            'GET',
            `${prefix(environment)}/messages?limit=100${status ? `&status=${status}` : ''}${query}`,
            { key },
          );
          return ids(reply.status === 200 ? reply.body.list : []); // 404: no match; 401: the account was deleted
        };
        expect(await api(''), `API ${environment} ${key} ${status}`).toEqual(ids(visible));
        expect(await api('&search=ROUND'), `API search ${environment} ${key} ${status}`).toEqual(ids(visible));
        const inRound2 = visible.filter(
          (view) => view.message.startsWith('Round 2') && view.recipient.some((number) => number.includes('2783111')),
        );
        expect(await api('&search=round%202&recipient=2783111'), `API search and recipient ${status}`).toEqual(
          ids(inRound2),
        );
        expect(await api('&recipient=0000,2783'), 'a recipient filter never spans two recipients').toEqual([]);
      }
    }
  }
  for (const status of [undefined, ...statuses]) {
    const expected = all.filter((view) => status === undefined || view.status === status);
    const page = emulator.messages.list({ ...(status && { status }), page: 2, limit: 3 });
    expect(ids(page.items), `control page 2 ${status}`).toEqual(ids(expected.slice(3, 6)));
    expect(page.total).toBe(expected.length);
  }
  for (const recipient of ['278322', '2783999']) {
    const byRecipient = emulator.messages.list({ recipient, limit: 1000 });
    expect(ids(byRecipient.items), `control recipient ${recipient}`).toEqual(
      ids(all.filter((view) => view.recipient.some((number) => number.includes(recipient)))),
    );
  }
}

/** Six sends over both accounts and environments; two are scheduled `inMinutes` after the test's start time. */
async function sendMix(emulator: Emulator, sent: Sent[], round: number, inMinutes = 60) {
  for (let i = 0; i < 6; i++) {
    const environment: Environment = i % 3 === 2 ? 'sandbox' : 'live';
    const [key, secret] = i % 2 === 0 ? [apiKey, undefined] : [other.key, other.secret];
    const fields = {
      recipient: i % 4 === 0 ? ['27831110000', '27832220000'] : [`2783222000${i}`],
      message: `Round ${round} message ${i}`,
      ...(i % 3 === 1 && { schedule: scheduleIn(inMinutes) }),
    };
    const message = await send(emulator, fields, environment, key, secret);
    sent.push({ id: message.id, environment });
  }
}

test('status, account and recipient filters and control pages stay right through sends, transitions, edits, deletes, account removal, resets and snapshot import', async () => {
  const emulator = makeEmulator();
  emulator.accounts.create({ apiKey: other.key, signingSecret: other.secret });
  const sent: Sent[] = [];
  await sendMix(emulator, sent, 1);
  await sendMix(emulator, sent, 2);
  await expectListsAgree(emulator, sent);

  await emulator.clock.advance('2s');
  await expectListsAgree(emulator, sent);

  const scheduled = (await truth(emulator, sent)).filter((view) => view.status === 'scheduled');
  const [edited, removed, forced] = scheduled;
  const key = (view: { account: string }) => (view.account === apiKey ? {} : { key: other.key, sign: other.secret });
  const path = (view: { environment: string; id: string }) =>
    `${prefix(view.environment as Environment)}/messages/${view!.id}`;
  expect(
    (await call(emulator, 'PATCH', path(edited!), { body: { recipient: ['27839990000'] }, ...key(edited!) })).status,
  ).toBe(200);
  expect((await call(emulator, 'DELETE', path(removed!), key(removed!))).status).toBe(200);
  await emulator.messages.forceStatus(forced!.id, { status: 'failed' });
  const open = (await truth(emulator, sent)).find((view) => view.status === 'pending' || view.status === 'submitted');
  await emulator.messages.forceStatus(open!.id, { status: 'undelivered' });
  await expectListsAgree(emulator, sent);

  await emulator.clock.advance('7d');
  const later = 60 + 7 * 24 * 60;
  await expectListsAgree(emulator, sent);

  const snapshot = emulator.snapshot();
  emulator.reset();
  expect(emulator.messages.list().total).toBe(0);
  emulator.restore(snapshot);
  await expectListsAgree(emulator, sent);

  await sendMix(emulator, sent, 3, later);
  emulator.accounts.create({ apiKey: 'pk_test_empty' });
  emulator.accounts.delete('pk_test_empty'); // no messages: the tables stay as they are
  await expectListsAgree(emulator, sent);
  emulator.accounts.delete(other.key);
  await expectListsAgree(emulator, sent);
  emulator.accounts.create({ apiKey: other.key, signingSecret: other.secret });
  await sendMix(emulator, sent, 5, later);
  await emulator.clock.advance('1s');
  await expectListsAgree(emulator, sent);

  emulator.reset({ account: apiKey });
  await sendMix(emulator, sent, 6, later);
  await expectListsAgree(emulator, sent);
});

test('search finds every match after a message whose text grows when lowercased (İ becomes two characters)', async () => {
  const emulator = makeEmulator();
  const texts = ['İ'.repeat(30), 'the target', 'x'.repeat(5), 'y'.repeat(40), 'İSTANBUL target'];
  const ids = [];
  for (const message of texts) ids.push((await send(emulator, { recipient: ['27831110000'], message })).id);
  const found = await call(emulator, 'GET', '/v1/messages?search=target');
  expect(found.body.list.map((message: { id: string }) => message.id)).toEqual([ids[4], ids[1]]);
  const dotted = await call(emulator, 'GET', `/v1/messages?search=${encodeURIComponent('i̇stanbul')}`);
  expect(dotted.body.list.map((message: { id: string }) => message.id)).toEqual([ids[4]]);
});

test('an empty search or recipient filter matches every message (it looped forever in the prefilter)', async () => {
  const emulator = makeEmulator();
  for (const message of ['one', 'two']) await send(emulator, { recipient: ['27831110000'], message });
  for (const query of ['search=', 'recipient=', 'search=&recipient=']) {
    expect((await call(emulator, 'GET', `/v1/messages?${query}`)).body.total_items, query).toBe(2);
  }
  expect(emulator.messages.list({ recipient: '' }).total).toBe(2);
});
