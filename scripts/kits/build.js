// npm run kits [-- <kit>…]: builds the emulator, writes the carried emulator (kits/dist/bundle/) and the carried Node
// runtime (kits/dist/runtime/<platform>/), proves the bundle runs alone on both the machine's node and the carried one
// (an empty temp folder, PATH emptied), then runs each kit's own build step, kits/<kit>/build-artefacts.sh <dist>, which
// writes that kit's artefacts (kits/dist/python/, maven/, goproxy/, …), and checks their version.
// Which kits: the names given (`npm run kits -- python go`), else KITS=python,go, else all. A kit that fails stops no
// other; the run names it at the end and exits 1. One run at a time per machine (scripts/kits/buildLock.js): a second
// waits, saying for whom. KITS_PLATFORMS=linux-x86_64,… limits the runtimes written (all of kits/runtime.json's by
// default).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkArtefactVersions } from './artefactVersions.js';
import { acquireBuildLock } from './buildLock.js';
import { buildKits, kitsWithBuildStep, requestedKits } from './buildKits.js';
import { writeKitBundle } from './bundle.js';
import { checkBundle } from './checkBundle.js';
import { cacheDir, hostPlatform, readRuntimePin, writeRuntimes } from './runtime.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'kits/dist');

function step(title) {
  console.log(`== kits: ${title}`);
}

let kits;
try {
  kits = requestedKits(kitsWithBuildStep(root), process.argv.slice(2), process.env);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

async function prepare() {
  step('npm run build');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed with status ${build.status}`);

  const contract = JSON.parse(readFileSync(join(root, 'test-vectors/kit-contract.json'), 'utf8'));
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  if (contract.version !== version)
    throw new Error(
      `kits: test-vectors/kit-contract.json says ${contract.version}, package.json ${version}: run npm run vectors`,
    );

  step('the carried emulator, kits/dist/bundle/');
  const bundleDir = join(dist, 'bundle');
  const carried = await writeKitBundle(root, bundleDir);
  console.log(`carries ${carried.packages.length} packages for ${carried.specifiers.join(', ')}`);

  step('the carried Node runtime, kits/dist/runtime/ (each binary checked against its wheel)');
  const pin = readRuntimePin(root);
  const platforms = process.env.KITS_PLATFORMS?.split(',').filter((name) => name !== '');
  const runtimes = writeRuntimes(root, join(dist, 'runtime'), platforms);
  for (const [platform, { binary, bytes, rewritten }] of Object.entries(runtimes))
    console.log(
      `${platform}: ${binary} (${pin.package} ${pin.version}, ${(bytes / 1e6).toFixed(1)} MB${rewritten ? ', written' : ''})`,
    );

  step('the bundle alone: a copy in an empty folder, PATH emptied, node by absolute path');
  const host = hostPlatform(pin);
  const nodes = [process.execPath, ...(host !== undefined && runtimes[host] ? [runtimes[host].binary] : [])];
  for (const node of nodes) {
    const { readyMs, balance } = await checkBundle(bundleDir, node, contract, carried.specifiers);
    console.log(`${node}: ready in ${readyMs} ms, balance ${balance.balance}`);
  }
  if (host === undefined || runtimes[host] === undefined)
    console.log(
      `the carried runtime was not started: this machine (${process.platform}-${process.arch}) has none written`,
    );
}

function buildKit(kit) {
  const script = join(root, 'kits', kit, 'build-artefacts.sh');
  step(`${kit}: kits/${kit}/build-artefacts.sh ${dist}`);
  const result = spawnSync('bash', [script, dist], { cwd: join(root, 'kits', kit), stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`kits/${kit}/build-artefacts.sh failed with status ${result.status}`);
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  console.log(
    `${kit}: at package.json's version ${version}: ${checkArtefactVersions(dist, version, [kit]).join(', ')}`,
  );
}

const lockPath = join(cacheDir, 'build.lock');
const owner = `pid ${process.pid} building ${kits.join(', ')} in ${root} since ${new Date().toISOString()}`;
let result;
try {
  result = await buildKits({
    kits,
    steps: { prepare, kit: buildKit },
    lock: () =>
      acquireBuildLock(lockPath, {
        owner,
        onWait: (holder) => console.log(`== kits: waiting for another npm run kits (${holder}; lock ${lockPath})`),
      }),
    log: console.log,
  });
} catch (error) {
  console.error(`kits: stopped before any kit was built: ${error.message}`);
  process.exit(1);
}
const { built, failed } = result;
console.log(
  `== kits: done; built ${built.length} of ${kits.length} (${built.join(', ') || 'none'})${
    failed.length > 0 ? `; failed: ${failed.map(({ kit, error }) => `${kit} (${error})`).join('; ')}` : ''
  }`,
);
process.exit(failed.length > 0 ? 1 : 0);
