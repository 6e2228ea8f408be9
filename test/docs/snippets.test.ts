/**
 * Every code block of the README and docs/ works when pasted: shell blocks run against one started emulator, TypeScript
 * blocks compile against the built package (one compiler run for all), scenario blocks load. A block that only starts a
 * server, or shows output, says so: `text` as its language, or a `<!-- not run: reason -->` line right above its fence.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { type Emulator, createEmulator } from '../../src/index.js';
import { type CodeBlock, codeBlocks, where } from '../support/codeBlocks.js';
import { docsPage, docsPages, readRepoFile } from '../support/docs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const blocks = [
  ...codeBlocks('README.md', readRepoFile('README.md')),
  ...docsPages().flatMap((page) => codeBlocks(`docs/${page}`, docsPage(page))),
];
const shell = new Set(['sh', 'bash', 'shell']);
const typescript = new Set(['ts', 'typescript']);
const checked = blocks.filter((block) => !block.notRun);

// A folder laid out like a user's project with the package installed: node_modules/sms-emulator is this repository (its
// package.json exports, its dist/), beside the dev tools a test file imports; TypeScript blocks are files of its test/
// folder, and its src/ is the worked example's app (examples/reminder-app), which the vitest page's test imports. Shell
// blocks run here too, so the files they write (state.json, timeline.html) stay out of the repository, and `scenarios/` is
// the bundled folder, as in a clone.
const project = mkdtempSync(join(tmpdir(), 'sms-emulator-docs-'));
mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
symlinkSync(root, join(project, 'node_modules', 'sms-emulator'), 'dir');
for (const name of ['vitest', 'supertest', '@types/node', '@types/supertest'])
  symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
// npm links a dependency's bin into node_modules/.bin at install: `npx sms-emulator clock advance 1h` finds it there.
mkdirSync(join(project, 'node_modules', '.bin'));
symlinkSync(join(root, 'bin', 'sms-emulator.js'), join(project, 'node_modules', '.bin', 'sms-emulator'));
symlinkSync(join(root, 'scenarios'), join(project, 'scenarios'), 'dir');
symlinkSync(join(root, 'examples', 'reminder-app', 'src'), join(project, 'src'), 'dir');
mkdirSync(join(project, 'test'));
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'docs-snippets', private: true, type: 'module' }));
afterAll(() => rmSync(project, { recursive: true, force: true }));

test('every code block names its language, so the test knows whether to run it (text for output)', () => {
  expect(blocks.filter((block) => block.language === '').map(where)).toEqual([]);
});

// ---- shell blocks: one emulator for all, as `npm start` runs it, reset before each block --------------------------------

let emulator: Emulator;
let origin: string;
beforeAll(async () => {
  emulator = createEmulator({ port: 0 });
  ({ origin } = await emulator.listen({ port: 0 }));
});
afterAll(() => emulator?.close());

/**
 * Run before each shell block. curl fails on an HTTP error answer, as a user reading it would. `npm test` stands for the
 * reader's own test suite: it passes when the URL the recipe exported reaches the emulator, and fails when it is empty.
 */
const prelude = `
trap 'echo "(this command failed: $BASH_COMMAND)" >&2' ERR
curl() { command curl --fail-with-body --silent --show-error "$@"; }
npm() {
  if [ "$*" = test ]; then
    [ -n "\${SMS_BASE_URL:-}" ] || { echo "npm test: SMS_BASE_URL is empty" >&2; return 1; }
    command curl --fail --silent --show-error -u pk_test_sms_emulator: "$SMS_BASE_URL/v1/messages/balance" >/dev/null
  else command npm "$@"; fi
}
`;

function runShell(code: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      'bash',
      ['-euo', 'pipefail', '-c', prelude + code.replaceAll('http://127.0.0.1:2727', origin)],
      {
        cwd: project,
        env: { ...process.env, SMS_EMULATOR_URL: origin },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 20_000,
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (status) => resolve({ status, output }));
  });
}

for (const block of checked.filter((each) => shell.has(each.language))) {
  test(`the shell block at ${where(block)} runs against a started emulator`, async () => {
    await emulator.reset();
    const { status, output } = await runShell(block.code);
    const tail = output.length > 3000 ? `…${output.slice(-3000)}` : output;
    expect(
      status,
      `${where(block)} exited with ${status}. Its output:\n${tail}\nThe block (http://127.0.0.1:2727 becomes ${origin}):\n${block.code}`,
    ).toBe(0);
  }, 30_000);
}

// ---- TypeScript blocks: each a module of its own in the project above, all compiled in one program ----------------------

const tsBlocks = checked.filter((block) => typescript.has(block.language));
const fileOf = (block: CodeBlock) => join(project, 'test', `${block.file.replace(/[/.]/g, '_')}_${block.line}.ts`);
let diagnostics: Map<string, string[]>;
beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'index.d.ts')))
    throw new Error('dist/ is missing: run npm run build first (npm test does)');
  for (const block of tsBlocks) writeFileSync(fileOf(block), block.code);
  const program = ts.createProgram(tsBlocks.map(fileOf), {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
    types: ['node'],
  });
  diagnostics = new Map();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? '';
    const line =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
        : 0;
    diagnostics.set(file, [
      ...(diagnostics.get(file) ?? []),
      `line ${line} of the block: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    ]);
  }
}, 120_000); // one compiler run over every block and the package's types: seconds, more on a busy machine

for (const block of tsBlocks) {
  test(`the TypeScript block at ${where(block)} compiles against the built package`, () => {
    expect(diagnostics.get(fileOf(block)) ?? [], `${where(block)} does not compile:\n${block.code}`).toEqual([]);
  });
}

// ---- scenario blocks: a YAML block that declares `version:` is a scenario file and must load ------------------------------

for (const block of checked.filter((each) => each.language === 'yaml' && /^version:/m.test(each.code))) {
  test(`the scenario block at ${where(block)} loads`, () => {
    expect(
      () => createEmulator({ scenario: parse(block.code) as Record<string, unknown> }),
      where(block),
    ).not.toThrow();
  });
}
