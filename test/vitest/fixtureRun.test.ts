/** The fixture as a user's vitest run sees it: a failing test's timeline, the errors it reports, options under smsGlobalSetup, in both modes. */

import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { type VitestRun, runVitest, testOf } from '../support/vitestRun.js';

const project = fileURLToPath(new URL('../fixtures/vitest-project/', import.meta.url));
let run: VitestRun;

// One vitest run of the fixture project (embedded and process projects, the latter on the built bin), read by every test here.
beforeAll(async () => {
  run = await runVitest(project);
}, 120_000);

for (const mode of ['embedded', 'process']) {
  test(`a failed test carries the timeline of its account as an HTML attachment and only its own error (${mode})`, () => {
    const failed = testOf(run, mode, 'failing.fixture.ts', 'fails on its own assertion about a message');
    expect(failed.state).toBe('failed');
    expect(failed.errors).toHaveLength(1);
    const id = /expected message ([\w-]+) to have status "delivered"; it is "pending"/.exec(
      failed.errors[0] ?? '',
    )?.[1];
    expect(id).toBeDefined();
    expect(failed.artifacts).toHaveLength(1);
    const [artifact] = failed.artifacts;
    expect(artifact?.type).toBe('sms-emulator:timeline');
    expect(artifact?.attachments[0]?.contentType).toBe('text/html');
    expect(artifact?.attachments[0]?.body).toMatch(new RegExp(`<html[\\s\\S]*${id}`));
  });

  test(`a test that failed after deleting its own account gets no second error (${mode})`, () => {
    const failed = testOf(run, mode, 'failing.fixture.ts', 'fails after deleting its own account');
    expect(failed.errors).toEqual([expect.stringMatching(/expected 'the app' to be 'working'/)]);
    expect(failed.artifacts).toEqual([]);
  });

  test(`a passing test gets no timeline (${mode})`, () => {
    const passed = testOf(run, mode, 'failing.fixture.ts', 'passes');
    expect(passed).toMatchObject({ state: 'passed', errors: [], artifacts: [] });
  });
}

test('toHaveStatus shows the history and upcoming changes, with times, of the message it fails on', () => {
  for (const mode of ['embedded', 'process']) {
    const [error] = testOf(run, mode, 'failing.fixture.ts', 'fails on its own assertion about a message').errors;
    expect(error).toMatch(
      /history: pending at \S+, submitted at \S+\n {2}leg 27831234567: pending at \S+, submitted at \S+; upcoming: delivered at \S+/,
    );
  }
});

test('under smsGlobalSetup, emulator options the process was not started with are refused with a clear error; embedded they apply', () => {
  const refused = testOf(
    run,
    'process',
    'otherOptions.fixture.ts',
    'uses options that only an embedded emulator can apply',
  );
  expect(refused.state).toBe('failed');
  expect(refused.errors).toEqual([
    expect.stringContaining(
      'createSmsTest({ emulator: { seed: "another-seed" } }) cannot apply: smsGlobalSetup started the emulator process every file uses, with {"clock":"manual","seed":"fixture-project"}',
    ),
  ]);
  expect(
    testOf(run, 'embedded', 'otherOptions.fixture.ts', 'uses options that only an embedded emulator can apply').state,
  ).toBe('passed');
});

test('every matcher can be awaited, embedded and in process mode', () => {
  for (const mode of ['embedded', 'process'])
    expect(testOf(run, mode, 'matchers.fixture.ts', 'every matcher can be awaited')).toMatchObject({
      state: 'passed',
      errors: [],
    });
});

test('a failing matcher whose await was forgotten fails its own test in both modes, and nothing fails the run', () => {
  for (const mode of ['embedded', 'process']) {
    const forgotten = testOf(
      run,
      mode,
      'matchers.fixture.ts',
      'a failing matcher whose await was forgotten fails its own test',
    );
    expect(forgotten.state).toBe('failed');
    expect(forgotten.errors).toEqual([
      expect.stringMatching(/to have sent a message with text "Never sent"; it sent 1:/),
    ]);
    expect(
      testOf(run, mode, 'matchers.fixture.ts', 'a failing matcher awaited and caught leaves its test green'),
    ).toMatchObject({ state: 'passed', errors: [] });
  }
  expect(run.output).not.toMatch(/Unhandled (Rejection|Error)/i);
});

test('toHaveMadeRequest counts requests from the journal over HTTP too, and a failure lists them', () => {
  const [error] = testOf(
    run,
    'process',
    'matchers.fixture.ts',
    'toHaveMadeRequest fails with the requests the account made',
  ).errors;
  expect(error).toMatch(
    /^expected account pk_test_[\w-]+ to have made a request with method "POST", path "\/v1\/messages" 2 times; it made once\. Its requests:\n {2}- POST \/v1\/messages 201 at \S+$/,
  );
});

test('each test has its own clock: a booking is still scheduled five minutes later while a concurrent test waits a day; on the shared clock it is not', () => {
  for (const mode of ['embedded', 'process']) {
    expect(
      testOf(run, mode, 'worlds.fixture.ts', 'a fresh booking is still scheduled five minutes later (test clock)'),
    ).toMatchObject({
      state: 'passed',
      errors: [],
    });
    expect(
      testOf(run, mode, 'worlds.fixture.ts', 'a reminder booked for tomorrow is delivered after a day (test clock)')
        .state,
    ).toBe('passed');
    const shared = testOf(
      run,
      mode,
      'worlds.fixture.ts',
      'a fresh booking is still scheduled five minutes later (shared clock)',
    );
    expect(shared.errors).toEqual([expect.stringMatching(/to have status "scheduled"; it is "delivered"/)]);
    for (const n of [1, 2, 3])
      expect(
        testOf(run, mode, 'otherFileDay.fixture.ts', `another file's reminder ${n} is delivered after a day`).state,
      ).toBe('passed');
  }
});

test('sms.now() answers the test clock at once in both modes, from startTime on; the clock is deleted after the test', () => {
  for (const mode of ['embedded', 'process']) {
    for (const name of [
      'sms.now() answers the test clock at once and follows every move the test makes',
      'the test clock is deleted after the test, with its account',
    ])
      expect(testOf(run, mode, 'clock.fixture.ts', name)).toMatchObject({ state: 'passed', errors: [] });
  }
});

test('a test whose receiver hangs holds none of its 20 concurrent neighbours: each takes about what it takes alone, embedded and in process mode', () => {
  for (const mode of ['embedded', 'process']) {
    const file = 'neighbours.fixture.ts';
    expect(
      testOf(run, mode, file, 'a test whose receiver never answers moves its clock until its neighbours are done'),
    ).toMatchObject({ state: 'passed', errors: [] });
    const durations = (company: string): number[] =>
      Array.from({ length: 20 }, (_, i) => {
        const neighbour = testOf(run, mode, file, `neighbour ${i + 1} is delivered and sees its webhook (${company})`);
        expect(neighbour).toMatchObject({ state: 'passed', errors: [] });
        return neighbour.duration;
      });
    const beside = Math.max(...durations('beside a hanging receiver'));
    const alone = Math.max(...durations('alone'));
    // A neighbour held by the hanging receiver waited tries × its 5 s timeout (20 s); a floor of 1 s keeps a busy
    // machine's scheduling noise on tests of a few milliseconds (the whole suite runs beside this one) from counting.
    expect(
      beside,
      `slowest neighbour ${beside} ms beside the hanging test, ${alone} ms alone (${mode})`,
    ).toBeLessThanOrEqual(2 * Math.max(alone, 1000));
  }
});

test('every act of the world facade answers for the test account, embedded and in process mode', () => {
  for (const mode of ['embedded', 'process'])
    expect(
      testOf(run, mode, 'worldActs.fixture.ts', 'every act of the world facade answers for the test account'),
    ).toMatchObject({ state: 'passed', errors: [] });
});

test("the worker's webhook catcher listens at the webhookHost a globalSetup provides, and the emulator's webhooks reach it there", () => {
  expect(
    testOf(
      run,
      'webhook-host',
      'webhookHost.check.ts',
      'webhooks reach the catcher at the webhookHost the globalSetup provides',
    ),
  ).toMatchObject({ state: 'passed', errors: [] });
});
