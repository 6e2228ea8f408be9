// npm run differential: the same scripted session against two builds (a commit built from git, and this checkout's dist/ or another commit), and every difference in their answers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCommit } from './buildCommit.js';
import {
  checkExpectations,
  diffRecordings,
  formatDiff,
  groupDifferences,
  readExpectations,
} from './differential/diff.js';
import { recordSession } from './differential/session.js';

/**
 * The commit before issue 34's refactor: the train merge that 0ff674e, the issue's first commit ("Guards that cannot
 * be dodged"), was made on. `git log --grep="issue 34"` finds 55ea3d5 first, but two commits before it (0ff674e and
 * 9f132e6, the unregistered-facts guard, which moved the clock modes to one home) are the issue's work too.
 */
export const issue34Base = '89cd17c';

const usage = `usage: npm run differential -- [--before <ref>] [--after <ref>] [--expect <file>] [--json <file>] [--write-expect <file>]
  --before <ref>        the commit to compare against (default ${issue34Base}, the last before issue 34), built from git
  --after <ref>         a commit to compare instead of this checkout's dist/ (npm run differential builds it first)
  --expect <file>       fail (exit 1) on a difference the file does not list, or an entry no difference matches
                        (a JSON file, or a Markdown page whose first json block is the list: docs/differential.md)
  --json <file>         write the differences as JSON
  --write-expect <file> write the differences as an expectations file (each entry's changelog left to fill in)
`;

const root = fileURLToPath(new URL('../', import.meta.url));

/** The dist/ folder of a build: this checkout's, or a commit's built under the temp folder. */
function distOf(ref) {
  if (ref === undefined) return { name: 'this checkout', dist: join(root, 'dist') };
  const built = buildCommit(ref);
  if ('skipped' in built) throw new Error(`differential: ${built.skipped}`);
  return { name: built.short, dist: join(built.dir, 'dist') };
}

async function main() {
  const { values } = parseArgs({
    options: {
      before: { type: 'string', default: issue34Base },
      after: { type: 'string' },
      expect: { type: 'string' },
      json: { type: 'string' },
      'write-expect': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const before = distOf(values.before);
  const after = distOf(values.after);
  process.stderr.write(`differential: recording ${before.name}, then ${after.name}\n`);
  const differences = diffRecordings(await recordSession(before.dist), await recordSession(after.dist));
  process.stdout.write(`Differences, ${before.name} → ${after.name}:\n${formatDiff(differences)}`);
  if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(differences, null, 2)}\n`);
  if (values['write-expect'] !== undefined) {
    const entries = groupDifferences(differences).map(({ call, path, before: was, after: is }) => ({
      call,
      path,
      before: was,
      after: is,
      changelog: '',
    }));
    writeFileSync(
      values['write-expect'],
      `${JSON.stringify({ before: before.name, differences: entries }, null, 2)}\n`,
    );
  }
  if (values.expect === undefined) return 0;
  const expected = readExpectations(readFileSync(values.expect, 'utf8'));
  const { unexpected, unseen } = checkExpectations(differences, expected);
  if (unexpected.length > 0)
    process.stdout.write(
      `\nNot in ${values.expect} (announce it in CHANGELOG.md and list it, or fix it):\n${formatDiff(unexpected)}`,
    );
  if (unseen.length > 0)
    process.stdout.write(
      `\nListed in ${values.expect} but no longer seen:\n${unseen.map((entry) => `  ${entry.call ?? '(any call)'} ${entry.path}`).join('\n')}\n`,
    );
  if (unexpected.length === 0 && unseen.length === 0)
    process.stdout.write(`\nEvery difference is listed in ${values.expect}.\n`);
  return unexpected.length === 0 && unseen.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
