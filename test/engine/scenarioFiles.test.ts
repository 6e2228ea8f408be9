/** Scenario files: every bundled one is valid, and every kind of mistake is reported at its line. */

import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { defaultScenario } from '../../src/engine/scenario/defaultScenario.js';
import { loadScenarios } from '../../src/engine/scenario/files.js';
import { scenarioJsonSchema } from '../../src/engine/scenario/jsonSchema.js';
import { mergeScenarios, parseScenario, validateScenario } from '../../src/engine/scenario/parse.js';

const scenariosDir = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/scenarios/', import.meta.url));

test.each(readdirSync(scenariosDir).filter((name) => name.endsWith('.yaml')))(
  'bundled scenario %s is valid',
  (name) => {
    expect(() => loadScenarios([`${scenariosDir}${name}`])).not.toThrow();
  },
);

test('scenarios/default.yaml is the built-in scenario', () => {
  const file = parse(readFileSync(`${scenariosDir}default.yaml`, 'utf8'));
  expect(validateScenario(file, 'file')).toEqual(validateScenario(defaultScenario, 'built-in'));
});

test('scenarios/scenario.schema.json is generated from the current definition (npm run schema)', () => {
  const committed = JSON.parse(readFileSync(`${scenariosDir}scenario.schema.json`, 'utf8'));
  expect(committed).toEqual(JSON.parse(JSON.stringify(scenarioJsonSchema())));
});

test.each([
  ['bad-yaml.yaml', /bad-yaml\.yaml:5:\d+: not valid YAML or JSON/],
  [
    'unknown-outcome.yaml',
    /unknown-outcome\.yaml:4:14: rules\[0\]\.outcome: expected one of "delivered", "undelivered".* or an object/,
  ],
  [
    'illegal-timeline.yaml',
    /illegal-timeline\.yaml:7:\d+: rules\[0\]\.outcome.*(cannot go from delivered to submitted|does not match)/,
  ],
  ['bad-duration.yaml', /bad-duration\.yaml:4:12: replies\[0\]\.after: expected a duration/],
  [
    'bad-regex.yaml',
    /bad-regex\.yaml:3:\d+: rules\[0\]\.match\.recipient.*(not a usable regular expression|does not match)/,
  ],
  ['bad-version.yaml', /bad-version\.yaml:1:10: version: /],
  ['bad-option.yaml', /bad-option\.yaml:3:15: options\.batchLimit: /],
  [
    'fault-without-effect.yaml',
    /fault-without-effect\.yaml:3:\d+: faults\[0\]: give at least one of error, latency, rateLimit or network/,
  ],
  [
    'duplicate-account.yaml',
    /duplicate-account\.yaml:6:\d+: accounts\[2\]\.apiKey: "pk_team" is already the key of accounts\[0\]/,
  ],
  [
    'unknown-fault-code.yaml',
    /unknown-fault-code\.yaml:4:\d+: faults\[0\]\.error\.code: expected one of "CONNECTION_INSECURE", /,
  ],
  ['unknown-field.yaml', /unknown-field\.yaml:3:\d+: rules\[0\]: unknown field\(s\) colour/],
  ['bad-json.json', /bad-json\.json:4:\d+: rules\[0\]\.outcome: /],
])('the broken fixture %s is reported at its line and path', (name, message) => {
  expect(() => loadScenarios([`${fixtures}${name}`])).toThrow(message);
});

test('a missing file names the path', () => {
  expect(() => loadScenarios(['nope/missing.yaml'])).toThrow(/nope\/missing\.yaml: cannot read the scenario file/);
});

test('an illegal timeline names the move that is not allowed', () => {
  const text =
    'version: 1\nrules:\n  - outcome: { timeline: [{ status: delivered, after: 1s }, { status: submitted, after: 1s }] }\n';
  expect(() => parseScenario(text, 'inline')).toThrow(/cannot go from delivered to submitted/);
});

test('later scenarios extend earlier ones: options and accounts overridden, lists appended', () => {
  const first = validateScenario(
    {
      version: 1,
      options: { batchLimit: 10 },
      accounts: [{ apiKey: 'pk_a', balance: 1 }],
      rules: [{ outcome: 'delivered' }],
    },
    'a',
  );
  const second = validateScenario(
    {
      version: 1,
      options: { messageLimit: 160 },
      accounts: [{ apiKey: 'pk_a', balance: 2 }],
      rules: [{ outcome: 'blist' }],
    },
    'b',
  );
  const merged = mergeScenarios([first, second]);
  expect(merged.options).toEqual({ batchLimit: 10, messageLimit: 160 });
  expect(merged.accounts).toEqual([{ apiKey: 'pk_a', balance: 2 }]);
  expect(merged.rules.map((rule) => rule.outcome)).toEqual(['delivered', 'blist']);
});
