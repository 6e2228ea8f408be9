// The kit contract (test-vectors/kit-contract.json) from the emulator's own code, run on the build: every control
// operation of the OpenAPI document with its name in each kit, the start protocol, the ready file's and the world's
// schemas, the error body, the API paths, the one version, and the kits' own rules (decision 0002's resolution order and
// its error, the timeline file name) whose one home is this file. scripts/write-test-vectors.js writes it (`npm run
// vectors`), test/scripts/kitContract.test.ts holds the file to it, and every kit's tests read the file.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isRoute, operationList } from '../dist/control/operationList.js';
import { openApiDocument } from '../dist/control/openapi.js';
import { answerSchemas, fromZod } from '../dist/control/answerSchemas.js';
import { worldInput } from '../dist/control/inputs.js';
import { apiPrefixes, environmentPaths } from '../dist/domain/environment.js';
import { readyInfoSchema } from '../dist/domain/readyInfo.js';
import { envName, flagName, resolveOptions } from '../dist/options.js';
import {
  kitDurationGrammar,
  kitDurationProblem,
  kitContainer,
  kitErrorPrefix,
  kitSettings,
  parseKitDuration,
} from '../dist/domain/kitSettings.js';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The kits' own languages, each with how it spells a name made of words. */
const kitNames = {
  python: (words) => words.join('_'),
  go: (words) => words.map(capital).join(''),
  java: (words) => words.map((word, index) => (index === 0 ? word : capital(word))).join(''),
  php: (words) => words.map((word, index) => (index === 0 ? word : capital(word))).join(''),
  ruby: (words) => words.join('_'),
};

function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** An operation id's words: `messages.forceStatus` is messages, force, status (lower case). */
function idWords(id) {
  return id.split('.').flatMap((part) => part.split(/(?=[A-Z])/).map((word) => word.toLowerCase()));
}

/** The operation's method name in each kit, by one rule from its id. */
export function kitOperationNames(id) {
  const words = idWords(id);
  return Object.fromEntries(Object.entries(kitNames).map(([kit, spell]) => [kit, spell(words)]));
}

/** The prefix of the control API, read off the OpenAPI document where it places the `health` operation. */
function controlPrefix(document, operations) {
  const health = operations.find(([id]) => id === 'health')[1];
  const documented = Object.keys(document.paths).find((path) => document.paths[path].get?.operationId === 'health');
  return documented.slice(0, documented.length - health.path.length);
}

function routeEntry(id, op) {
  const input = op.input === undefined ? undefined : fromZod(op.input, 'input');
  const bodyArg = op.args.find((spec) => spec.in === 'body' || spec.in === 'text');
  const query = op.args.flatMap((spec) => {
    if (spec.in !== 'query') return [];
    return spec.name === undefined ? Object.keys(input?.properties ?? {}) : [spec.name];
  });
  return {
    id,
    method: op.method,
    path: op.path,
    summary: op.summary,
    params: op.args.filter((spec) => spec.in === 'path').map((spec) => spec.name),
    query,
    pages: op.pages === true,
    body: bodyArg !== undefined,
    ...(bodyArg?.in === 'text' ? { bodyText: true } : {}),
    ...(bodyArg?.in === 'body' && input !== undefined ? { input } : {}),
    status: op.status ?? 200,
    answer: op.answer ?? null,
    open: op.open === true,
    names: kitOperationNames(id),
  };
}

/** The longest timeline file name a kit writes. */
const timelineMaxLength = 100;
const timelinePrefix = 'sms-emulator-timeline-';
const timelineSuffix = '.html';
/** Hex digits of the id's SHA-256 in a shortened name: two long ids that share what is kept still differ. */
const timelineHashLength = 8;

/** Where the test's own name starts: after the last `::` or `/` outside square brackets (a parameter may hold either). */
function testNameStart(testId) {
  let depth = 0;
  let start = 0;
  for (let index = 0; index < testId.length; index += 1) {
    const char = testId[index];
    if (char === '[') depth += 1;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && char === '/') start = index + 1;
    else if (depth === 0 && testId.startsWith('::', index)) start = index + 2;
  }
  return start;
}

function safeName(text) {
  return text.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

/** A failing test's timeline file name: the rule every kit follows (kit-contract.json's `timeline`). */
export function timelineFileName(testId) {
  const whole = safeName(testId);
  const room = timelineMaxLength - timelinePrefix.length - timelineSuffix.length;
  if (whole.length <= room) return `${timelinePrefix}${whole}${timelineSuffix}`;
  const hash = createHash('sha256').update(testId, 'utf8').digest('hex').slice(0, timelineHashLength);
  const start = testNameStart(testId);
  const name = safeName(testId.slice(start)).slice(0, room - hash.length - 1);
  const front = safeName(testId.slice(0, start)).slice(0, Math.max(0, room - hash.length - 2 - name.length));
  return `${timelinePrefix}${front === '' ? '' : `${front}-`}${hash}-${name}${timelineSuffix}`;
}

const timelineExamples = [
  'tests/test_orders.py::test_shipping_notice_is_delivered',
  'tests/test_orders.py::test_outcome[27830000001-delivered]',
  'TestReminders/sends_at_nine_o’clock',
  '[engine:junit-jupiter]/[class:dev.example.shop.DeliveryNoticeTest]/[method:customerGetsOneSmsPerParcel()]',
  'tests/integration/notifications/test_delivery_notifications.py::TestRetries::test_a_webhook_answered_500_is_retried_three_times_then_left',
  'Café ☕ test: 👍🏽',
  'tests/integration/notifications/test_delivery_notifications.py::TestRetries::test_a_webhook_answered_500_is_retried_four_times_then_left',
  'tests/test_outcomes.py::test_a_delivery_outcome_is_reported_to_the_shop[27830000001-delivered-after/a_long_delay::ok]',
  '[engine:junit-jupiter]/[class:dev.example.shop.notifications.DeliveryNoticeTest]/[method:customerGetsOneSmsPerParcelEvenWhenTheCourierSplitsIt()]',
  `TestReminders/${'sends_a_reminder_at_nine_o_clock_in_the_customer_s_own_time_zone_'.repeat(2)}`,
];

/** The environment variables of decision 0002's resolution order. */
const resolutionEnv = {
  url: envName('url'),
  token: envName('controlToken'),
  command: 'SMS_EMULATOR_COMMAND',
  startTimeout: kitSettings.startTimeout.env,
};

/** Texts a front door's duration setting may be given, each read by parseKitDuration: every kit's tests read them all. */
const durationExamples = [
  '2m',
  '120',
  '120s',
  '90s',
  '1h30m',
  '5m1s',
  '500ms',
  '1.5s',
  '0.5',
  ' 2m ',
  '7d',
  '36500d',
  '2 m',
  '2min',
  '2M',
  'PT2M',
  '-1s',
  '0',
  '0s',
  '1e3',
  '1h-5m',
  's',
  '36501d',
  'abc',
];

/** The settings every front door shares: defaults, units, the duration grammar and the error prefix (src/domain/kitSettings.ts). */
function settings() {
  const durations = Object.fromEntries(
    Object.entries(kitSettings).map(([name, setting]) => [name, { ...setting, ms: parseKitDuration(setting.default) }]),
  );
  return {
    errorPrefix: kitErrorPrefix,
    ...durations,
    webhookBodyLimit: {
      option: 'maxBodySize',
      bytes: resolveOptions().maxBodySize,
      description:
        "The largest webhook body a kit's catcher reads, in bytes: the emulator's own body bound (the maxBodySize option's default). A webhook the emulator posts carries one message or reply, whose text reached it within that bound; a larger post is refused (413) without being read whole, and never counted.",
    },
    durationGrammar: {
      rule: `The emulator's duration grammar: one or more number-and-unit parts (${Object.keys(kitDurationGrammar.units).join(', ')}), such as 500ms, 90s, 2m, 1h30m or 7d; a bare number counts ${kitDurationGrammar.bareNumberUnit === 's' ? 'seconds' : kitDurationGrammar.bareNumberUnit}; spaces around the text are ignored; the result is rounded to whole milliseconds and must be more than 0 and at most ${kitDurationGrammar.maxMs} ms. Anything else is refused with an error naming the setting (problem), never read as another duration.`,
      ...kitDurationGrammar,
      problem: kitDurationProblem('{name}', '{text}'),
      examples: durationExamples.map((text) => ({ text, ms: parseKitDuration(text) ?? null })),
    },
  };
}

/** The container image every Testcontainers module starts (src/domain/kitSettings.ts's kitContainer). */
function container(document) {
  // The health path is the documented path of the control API's open health operation, the port the option's default.
  const healthPath = Object.keys(document.paths).find((path) => document.paths[path].get?.operationId === 'health');
  return {
    description:
      'The image `npm run image` builds and every Testcontainers module starts by default: `image` (repository and the one version as tag; a module reads `imageEnv` or its own argument for another), the port the emulator listens on inside it, the health path a module waits on (200 once ready, open without the control token), and the variables a module sets: a control token of its own for each container (`controlTokenEnv`), and the names other containers reach it by (`allowedHostsEnv`, comma-separated, for a network alias).',
    image: `${kitContainer.repository}:${packageJson.version}`,
    ...kitContainer,
    port: resolveOptions().port,
    healthPath,
    controlTokenEnv: envName('controlToken'),
    allowedHostsEnv: envName('allowedHosts'),
  };
}

/** The lowest Node the emulator runs on, as package.json's engines states it (`>=20.19`). */
function minimumNodeVersion() {
  const found = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(packageJson.engines.node);
  if (found === null) throw new Error(`kit contract: cannot read engines.node ${packageJson.engines.node}`);
  return { major: Number(found[1]), version: `${found[1]}.${found[2] ?? 0}.${found[3] ?? 0}` };
}

function resolution() {
  const node = minimumNodeVersion();
  return {
    order: ['url', 'command', 'carried', 'path-node'],
    env: resolutionEnv,
    minimumNode: node.major,
    minimumNodeVersion: node.version,
    notFound: [
      'sms-emulator: no emulator to test against. Tried, in this order:',
      `  1. ${resolutionEnv.url} (a running emulator, with ${resolutionEnv.token} if it needs one): {url}`,
      `  2. ${resolutionEnv.command} (a command that starts one; a relative path in it is resolved against the project root): {command}`,
      '  3. the Node runtime this kit carries, with the emulator it carries: {carried}',
      `  4. a node ${node.version} or newer on PATH, with the emulator this kit carries: {pathNode}`,
      `Set ${resolutionEnv.url} or ${resolutionEnv.command}, add this kit's runtime for your platform, or install Node ${node.major} or newer. An unpinned npx is never run.`,
    ].join('\n'),
  };
}

/** The whole contract, as test-vectors/kit-contract.json holds it. */
export function kitContract() {
  const document = openApiDocument();
  const operations = operationList();
  const routes = operations.filter(([, op]) => isRoute(op));
  const answers = answerSchemas();
  return {
    description:
      "The one contract of the language kits (issue 30, docs/decisions/0002-kit-artefacts.md), written from the emulator's own code by `npm run vectors`: every control operation of the OpenAPI document with its method name in each kit, how a kit starts the emulator it carries, the ready file, the world request and answer, the error body, the API path per environment, the timeline file name rule, and the one version every kit's metadata carries. test-vectors/README.md describes each part.",
    version: packageJson.version,
    resolution: resolution(),
    settings: settings(),
    container: container(document),
    start: {
      args: [
        ...[flagName('port'), '0', flagName('clock'), 'manual'],
        ...[flagName('readyFile'), '{readyFile}', flagName('parentPid'), '{parentPid}'],
      ],
      readyFile: fromZod(readyInfoSchema),
      bundleEntry: packageJson.bin['sms-emulator'],
    },
    paths: { control: controlPrefix(document, operations), api: { ...apiPrefixes }, base: { ...environmentPaths } },
    world: { request: fromZod(worldInput, 'input'), answer: answers.World },
    errorBody: document.components.schemas.Error,
    timeline: {
      rule: `${timelinePrefix}<test>${timelineSuffix}, where <test> is the test's full id (pytest's node id, Go's t.Name(), JUnit's unique id) with every run of characters other than A-Z a-z 0-9 _ . - replaced by one _, when that keeps the whole file name at most ${timelineMaxLength} characters. A longer id is shortened so the test's own name stays whole: <test> is then <front>-<hash>-<name>, where <name> is the id after its last :: or / outside square brackets (the whole id when it has none), made safe the same way and cut at its end only if it alone does not fit; <hash> is the first ${timelineHashLength} hex digits of the SHA-256 of the whole id's UTF-8 bytes, so two long ids never share a name; <front> is the start of the rest of the id, made safe, as much of it as fits (when none fits it is left out with its -). It is written in a folder of the run's own under the build's folder (target/, pytest's base temp, the Go test's artefact dir), so runs never overwrite each other.`,
      hashLength: timelineHashLength,
      maxLength: timelineMaxLength,
      examples: timelineExamples.map((test) => ({ test, file: timelineFileName(test) })),
    },
    operations: routes.map(([id, op]) => routeEntry(id, op)),
    shortcuts: operations
      .filter(([, op]) => !isRoute(op))
      .map(([id, op]) => ({ id, via: op.via, summary: op.summary, names: kitOperationNames(id) })),
    answers,
  };
}
