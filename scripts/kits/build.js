// npm run kits: builds the emulator, writes the carried emulator (kits/dist/bundle/) and the carried Node runtime
// (kits/dist/runtime/<platform>/), proves the bundle runs alone on both the machine's node and the carried one (an empty
// temp folder, PATH emptied), then runs each kit's own build step, kits/<language>/build-artefacts.sh <dist>, which
// writes that kit's artefacts (kits/dist/python/, maven/, goproxy/, …). A kit without the script is skipped, saying so.
// KITS_PLATFORMS=linux-x86_64,… limits the runtimes written (all of kits/runtime.json's by default).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkArtefactVersions } from './artefactVersions.js';
import { writeKitBundle } from './bundle.js';
import { checkBundle } from './checkBundle.js';
import { hostPlatform, readRuntimePin, writeRuntimes } from './runtime.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'kits/dist');

function step(title) {
  console.log(`== kits: ${title}`);
}

step('npm run build');
const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

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

step('the carried Node runtime, kits/dist/runtime/');
const pin = readRuntimePin(root);
const platforms = process.env.KITS_PLATFORMS?.split(',').filter((name) => name !== '');
const runtimes = writeRuntimes(root, join(dist, 'runtime'), platforms);
for (const [platform, { binary, bytes }] of Object.entries(runtimes))
  console.log(`${platform}: ${binary} (${pin.package} ${pin.version}, ${(bytes / 1e6).toFixed(1)} MB)`);

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

const kits = readdirSync(join(root, 'kits'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'dist')
  .map((entry) => entry.name)
  .sort();
const skipped = [];
for (const kit of kits) {
  const script = join(root, 'kits', kit, 'build-artefacts.sh');
  if (!existsSync(script)) {
    skipped.push(kit);
    console.log(`== kits: ${kit} skipped: kits/${kit}/build-artefacts.sh does not exist yet`);
    continue;
  }
  step(`${kit}: kits/${kit}/build-artefacts.sh ${dist}`);
  const result = spawnSync('bash', [script, dist], { cwd: join(root, 'kits', kit), stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`kits: kits/${kit}/build-artefacts.sh failed with status ${result.status}`);
    process.exit(result.status ?? 1);
  }
}
step(`every artefact at package.json's version ${version}`);
const checked = checkArtefactVersions(dist, version);
console.log(checked.length > 0 ? checked.join(', ') : 'no kit artefacts yet');
console.log(
  `== kits: done; built ${kits.length - skipped.length} of ${kits.length} kits${skipped.length > 0 ? ` (skipped: ${skipped.join(', ')})` : ''}`,
);
