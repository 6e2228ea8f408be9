/** The kit contract (test-vectors/kit-contract.json): what the emulator's code says, every control operation of the OpenAPI document, and rules that hold. */

import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { openApiDocument } from '../../src/control/openapi.js';
import { readyInfoSchema } from '../../src/domain/readyInfo.js';
import { createEmulator } from '../../src/index.js';
import { containerPort, imageTag } from '../../scripts/image/imageConfig.js';
// The generator runs on the build, as `npm run vectors` does (npm test builds first).
import { type KitContract, kitContract, kitOperationNames, timelineFileName } from '../../scripts/kitContract.js';

const committed = JSON.parse(
  readFileSync(new URL('../../test-vectors/kit-contract.json', import.meta.url), 'utf8'),
) as KitContract;
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

test('the committed kit contract is what the code generates (npm run vectors writes it)', () => {
  expect(committed).toEqual(kitContract());
});

test("every control operation of the OpenAPI document is in the kit contract, with the document's method and path", () => {
  const document = openApiDocument() as { paths: Record<string, Record<string, { operationId?: string }>> };
  const prefix = committed.paths.control;
  const documented = Object.entries(document.paths)
    .filter(([path]) => path.startsWith(`${prefix}/`))
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => method !== 'servers')
        .map(([method, operation]) => `${operation.operationId} ${method.toUpperCase()} ${path.slice(prefix.length)}`),
    );
  const contracted = committed.operations.map((op) => `${op.id} ${op.method} ${op.path}`);
  expect(documented.length).toBeGreaterThan(40);
  expect(documented.filter((entry) => !contracted.includes(entry))).toEqual([]);
  expect(contracted.filter((entry) => !documented.includes(entry))).toEqual([]);
});

test("the contract's version is package.json's, and its bundle entry the package's bin", () => {
  expect(committed.version).toBe(packageJson.version);
  expect(committed.start.bundleEntry).toBe(packageJson.bin['sms-emulator']);
});

test('kit names follow one rule from the id: snake_case for python and ruby, PascalCase for go, camelCase for java and php', () => {
  expect(kitOperationNames('messages.forceStatus')).toEqual({
    python: 'messages_force_status',
    go: 'MessagesForceStatus',
    java: 'messagesForceStatus',
    php: 'messagesForceStatus',
    ruby: 'messages_force_status',
  });
  expect(kitOperationNames('reset')).toEqual({
    python: 'reset',
    go: 'Reset',
    java: 'reset',
    php: 'reset',
    ruby: 'reset',
  });
  // No two operations or shortcuts share a name in any kit.
  const all = [...committed.operations, ...committed.shortcuts];
  for (const kit of ['python', 'go', 'java', 'php', 'ruby'] as const)
    expect(new Set(all.map((op) => op.names[kit])).size).toBe(all.length);
});

test('a timeline file name keeps only safe characters and, for a long id, the test name whole with a hash of the id, at most maxLength long', () => {
  const front = `tests/${'integration/'.repeat(3)}test_notifications.py::TestRetries`;
  const name = 'test_is_retried[27830000001-a/b]';
  const file = timelineFileName(`${front}::${name}`);
  expect(file).toHaveLength(committed.timeline.maxLength);
  expect(file).toMatch(
    /^sms-emulator-timeline-tests_integration_[a-z_.]*-[0-9a-f]{8}-test_is_retried_27830000001-a_b_\.html$/,
  );
  // Two long ids that differ only in the middle, which is cut, still get two names.
  expect(timelineFileName(`${front.replace('TestRetries', 'TestRetryz')}::${name}`)).not.toBe(file);
  // A test name too long to fit alone keeps its start, after the hash.
  const longName = `${'very_long_name_'.repeat(20)}END`;
  expect(timelineFileName(`tests/test_a.py::${longName}`)).toMatch(
    /^sms-emulator-timeline-[0-9a-f]{8}-very_long_name_very/,
  );
  expect(timelineFileName('a b//c[d]')).toBe('sms-emulator-timeline-a_b_c_d_.html');
  for (const { file: example } of committed.timeline.examples) {
    expect(example).toMatch(/^sms-emulator-timeline-[A-Za-z0-9_.-]*\.html$/);
    expect(example.length).toBeLessThanOrEqual(committed.timeline.maxLength);
  }
  expect(committed.timeline.examples.some(({ test: id }) => id.length > committed.timeline.maxLength)).toBe(true);
});

test('the not-found error names all four steps of the resolution order, each with a placeholder for what it found', () => {
  const { notFound, env } = committed.resolution;
  for (const placeholder of ['{url}', '{command}', '{carried}', '{pathNode}']) expect(notFound).toContain(placeholder);
  expect(notFound).toContain(env.url);
  expect(notFound).toContain(env.command);
  expect(notFound).toContain('npx is never run');
});

test('the ready file schema is the one the CLI is held to, with no property left out', () => {
  const schema = committed.start.readyFile as { properties: Record<string, unknown>; additionalProperties: boolean };
  expect(Object.keys(schema.properties)).toEqual(Object.keys(readyInfoSchema.shape));
  expect(schema.additionalProperties).toBe(false);
});

test("the contract's container image is the one npm run image tags, and its health path answers 200 without the control token", async () => {
  const { container } = committed;
  expect(container.image).toBe(imageTag(packageJson.version));
  expect(containerPort).toBe(container.port);
  const emulator = createEmulator({ clock: 'manual', controlToken: 'tok-43' });
  const health = await emulator.fetch(new Request(`http://localhost${container.healthPath}`));
  expect(health.status).toBe(200);
  const guarded = await emulator.fetch(new Request(`http://localhost${committed.paths.control}/clock`));
  expect(guarded.status).toBe(401);
  await emulator.close();
});
