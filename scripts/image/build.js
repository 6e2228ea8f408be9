// npm run image: builds the container image (issue 43, docs/container.md) into kits/dist/image/ from registry packages
// only, with no base image: npm run build, the carried Node runtime for this machine's Linux architecture
// (scripts/kits/runtime.js), the root filesystem (rootfs.js), then the docker-archive tar, the gzipped root filesystem
// and the Dockerfile beside it. Prints the sizes; fails when the compressed image passes its 60 MB budget. Shares the
// kits' build lock (scripts/kits/buildLock.js): both write dist/ and read the runtime cache.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireBuildLock } from '../kits/buildLock.js';
import { cacheDir, hostPlatform, readRuntimePin, writeRuntimes } from '../kits/runtime.js';
import { writeImageArchives } from './dockerArchive.js';
import { dockerfileText } from './dockerfile.js';
import { imageOutDir, imageTag } from './imageConfig.js';
import { writeRootfs } from './rootfs.js';

/** The most the image may weigh gzipped (issue 43). */
const budgetBytes = 60e6;

const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(root, imageOutDir);
const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function step(title) {
  console.log(`== image: ${title}`);
}

async function build() {
  const pin = readRuntimePin(root);
  const platform = hostPlatform(pin);
  if (platform === undefined || !platform.startsWith('linux-'))
    throw new Error(
      `image: npm run image builds on Linux (x86_64 or aarch64) for its own architecture; this is ${process.platform}-${process.arch}`,
    );
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

  step('npm run build');
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`image: npm run build failed with status ${built.status}`);

  step(`the carried Node runtime for ${platform} (${pin.package} ${pin.version})`);
  const { binary } = writeRuntimes(root, join(root, 'kits/dist/runtime'), [platform])[platform];

  step('the root filesystem: Debian packages (apt-get download), node, the carried emulator, the health check');
  const rootfsDir = join(outDir, 'rootfs');
  const { debs, packages } = await writeRootfs(root, rootfsDir, binary);
  console.log(`Debian packages: ${debs.join(', ')}; the emulator carries ${packages.length} npm packages`);

  step('the image archives and the Dockerfile');
  const tag = imageTag(version);
  const written = await writeImageArchives(rootfsDir, outDir, {
    tag,
    version,
    architecture: pin.platforms[platform].goarch,
  });
  rmSync(rootfsDir, { recursive: true, force: true });
  writeFileSync(join(outDir, 'Dockerfile'), dockerfileText(version));
  console.log(`${written.imageArchive}: ${tag}, ${written.configDigest} (${megabytes(written.imageBytes)})`);
  console.log(
    `${written.rootfsArchive}: ${megabytes(written.rootfsGzipBytes)} gzipped (${megabytes(written.layerBytes)} unpacked; budget ${megabytes(budgetBytes)})`,
  );
  console.log(`load it with: podman load -i ${written.imageArchive}   (or docker load -i)`);
  if (written.rootfsGzipBytes > budgetBytes)
    throw new Error(
      `image: ${megabytes(written.rootfsGzipBytes)} gzipped is over the ${megabytes(budgetBytes)} budget`,
    );
}

const release = await acquireBuildLock(join(cacheDir, 'build.lock'), {
  owner: `pid ${process.pid} building the container image in ${root} since ${new Date().toISOString()}`,
  onWait: (holder) => console.log(`== image: waiting for another kits or image build (${holder})`),
});
try {
  await build();
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await release();
}
