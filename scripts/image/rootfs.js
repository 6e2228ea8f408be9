// Writes the container image's root filesystem (issue 43) from registry packages only, no base image: the carried Node
// runtime (the node binary of kits/runtime.json's wheel), the carried emulator (scripts/kits/bundle.js), the health
// check, and the shared libraries node needs from Debian's packages (apt-get download, dpkg-deb -x), checked against
// what `ldd` says the binary loads. Documentation, locales and glibc's iconv modules are left out (Node carries its own
// ICU and never loads them).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeKitBundle } from '../kits/bundle.js';
import { imageUser, inImage } from './imageConfig.js';

/** The Debian packages holding what node loads: glibc (libc, libm, libdl, libpthread, the loader), libstdc++, libgcc_s. */
const debianPackages = ['libc6', 'libstdc++6', 'libgcc-s1'];
/** What the image does without: each package's documentation and lintian notes, gdb helpers, glibc's gconv modules. */
const leftOut = ['usr/share', 'usr/lib/x86_64-linux-gnu/gconv', 'usr/lib/aarch64-linux-gnu/gconv'];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error !== undefined) throw new Error(`image: cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`image: ${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** The libraries `ldd` says `binary` loads: each one's name (`libc.so.6`) and, for the loader, its absolute path. */
function loadedLibraries(binary) {
  const libraries = [];
  for (const line of run('ldd', [binary]).split('\n')) {
    const linked = /^\s*(\S+) => (\S+)/.exec(line);
    const loader = /^\s*(\/\S+) \(0x/.exec(line);
    if (linked !== null) libraries.push({ name: linked[1] });
    else if (loader !== null) libraries.push({ name: loader[1].split('/').pop(), path: loader[1] });
  }
  return libraries;
}

function exists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Every file name under the root filesystem's library folders. */
function libraryNames(target) {
  const names = new Set();
  const walk = (dir) => {
    if (!exists(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else names.add(entry.name);
    }
  };
  for (const dir of ['lib', 'lib64', 'usr/lib']) walk(join(target, dir));
  return names;
}

/** Downloads the Debian packages into a temporary folder and unpacks them into `target`. Answers the .deb names. */
function unpackDebianPackages(target) {
  const downloads = mkdtempSync(join(tmpdir(), 'sms-emulator-image-debs-'));
  try {
    // apt-get drops to its _apt user to download, which cannot write a root-owned temporary folder.
    chmodSync(downloads, 0o777);
    run('apt-get', ['download', ...debianPackages], { cwd: downloads });
    const debs = readdirSync(downloads).filter((name) => name.endsWith('.deb'));
    for (const deb of debs) run('dpkg-deb', ['-x', join(downloads, deb), target]);
    return debs.sort();
  } finally {
    rmSync(downloads, { recursive: true, force: true });
  }
}

/**
 * Writes the root filesystem into `target` (emptied first) from the built checkout at `root` and the node binary at
 * `node`; throws when a library `ldd` names is not in it. Answers the Debian packages and the bundle's packages.
 */
export async function writeRootfs(root, target, node) {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });

  const debs = unpackDebianPackages(target);
  for (const path of leftOut) rmSync(join(target, path), { recursive: true, force: true });
  const present = libraryNames(target);
  const missing = loadedLibraries(node).filter(
    ({ name, path }) => !present.has(name) || (path !== undefined && !exists(join(target, path))),
  );
  if (missing.length > 0)
    throw new Error(
      `image: node loads ${missing.map(({ name, path }) => path ?? name).join(', ')}, which ${debianPackages.join(', ')} do not hold`,
    );

  const inside = (path) => join(target, path);
  mkdirSync(dirname(inside(inImage.node)), { recursive: true });
  copyFileSync(node, inside(inImage.node));
  chmodSync(inside(inImage.node), 0o755);
  const carried = await writeKitBundle(root, inside(inImage.emulator));
  copyFileSync(join(root, 'scripts/image/healthcheck.js'), inside(inImage.healthcheck));

  // The user by number and name, with no home and no shell; /tmp is the only place it may write.
  const { name, uid, gid } = imageUser;
  mkdirSync(inside('etc'), { recursive: true });
  writeFileSync(
    inside('etc/passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\n${name}:x:${uid}:${gid}::/tmp:/sbin/nologin\n`,
  );
  writeFileSync(inside('etc/group'), `root:x:0:\n${name}:x:${gid}:\n`);
  // glibc without this file asks DNS before /etc/hosts, so a name the runtime puts there (host.containers.internal,
  // host.docker.internal) would not resolve for a webhook URL.
  writeFileSync(inside('etc/nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files dns\n');
  mkdirSync(inside('tmp'));
  chmodSync(inside('tmp'), 0o1777);
  return { debs, packages: carried.packages };
}
