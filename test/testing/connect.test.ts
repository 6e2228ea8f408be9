import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiError, type Emulator, connect, createEmulator } from '../../src/index.js';

let emulator: Emulator;
let origin: string;
beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', seed: 'connect', controlToken: 'secret' });
  origin = (await emulator.listen({ port: 0 })).origin;
});
afterAll(() => emulator.close());

test('sends the control token and reads the answer', async () => {
  const remote = connect(`${origin}/_emulator/ignored/path`, { controlToken: 'secret' });
  expect(remote.urls).toMatchObject({ origin, live: origin, sandbox: `${origin}/sandbox` });
  expect((await remote.accounts.get('pk_test_sms_emulator')).apiKey).toBe('pk_test_sms_emulator');
});

test('an error answer throws the ApiError the in-process handle throws, with its code and status', async () => {
  const error = await connect(origin, { controlToken: 'wrong' })
    .clock.state()
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ code: 'CONTROL_UNAUTHORIZED', status: 401 });
});

test('a scenario given as text travels as text', async () => {
  const remote = connect(origin, { controlToken: 'secret' });
  const scenario = await remote.scenario.set(
    'version: 1\nrules:\n  - match: { recipient: "27831112222" }\n    outcome: undelivered\n',
  );
  expect(scenario.rules).toHaveLength(1);
});

test('an address that is not an emulator, or where nothing answers, fails with an error saying so, not a JSON SyntaxError', async () => {
  const page = async () =>
    new Response('<html>my app</html>', { status: 200, headers: { 'content-type': 'text/html' } });
  await expect(connect('http://app.test', { fetch: page }).clock.state()).rejects.toThrow(
    /http:\/\/app\.test\/_emulator\/clock answered 200 with something other than JSON \(<html>my app<\/html>\): is this the emulator's address\?/,
  );
  const refused = async (): Promise<Response> => {
    throw new TypeError('fetch failed');
  };
  await expect(connect('http://down.test', { fetch: refused }).health()).rejects.toThrow(
    /no answer from http:\/\/down\.test\/_emulator\/health: fetch failed/,
  );
});

test("report() answers an account's timeline over HTTP: the HTML page the in-process report() renders, or its data", async () => {
  const remote = connect(origin, { controlToken: 'secret' });
  expect(await remote.report({ account: 'pk_test_sms_emulator' })).toBe(
    emulator.report({ account: 'pk_test_sms_emulator' }),
  );
  expect(await remote.report({ format: 'json' })).toEqual(
    JSON.parse(JSON.stringify(emulator.report({ format: 'json' }))),
  );
  await expect(remote.report({ account: 'pk_nobody' })).rejects.toMatchObject({ code: 'CONTROL_NOT_FOUND' });
});
