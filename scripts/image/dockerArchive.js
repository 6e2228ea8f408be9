// Writes the image from a root filesystem folder: the root filesystem as one gzipped tar (what the Dockerfile ADDs) and a
// docker-archive tar holding it as the image's single layer with its config (`podman load -i`, `docker load -i`). The
// tars are made by GNU tar with sorted names, owner root and a fixed time, so the same inputs give the same image id.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  linkSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { imageArchiveName, rootfsArchiveName, runConfig } from './imageConfig.js';

/** The one time every file and the image itself carry: SOURCE_DATE_EPOCH when set, else the Unix epoch. */
const epoch = Number(process.env.SOURCE_DATE_EPOCH ?? 0);

/** GNU tar creating an archive whose bytes depend only on the files: owner root and the one fixed time on every entry. */
function tar(file, directory, members) {
  const args = [
    '--create',
    `--file=${file}`,
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    `--mtime=@${epoch}`,
    '--format=gnu',
    `--directory=${directory}`,
    ...members,
  ];
  const result = spawnSync('tar', args, { encoding: 'utf8' });
  if (result.error !== undefined) throw new Error(`image: cannot run tar: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`image: tar ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
}

async function sha256File(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Writes `<outDir>/sms-emulator-rootfs.tar.gz` and `<outDir>/sms-emulator-image.tar` from `rootfsDir`, the image tagged
 * `tag` for `architecture` (the OCI name: amd64, arm64). Answers both paths, their sizes and the image's config digest.
 */
export async function writeImageArchives(rootfsDir, outDir, { tag, version, architecture }) {
  mkdirSync(outDir, { recursive: true });
  const staging = mkdtempSync(join(outDir, '.staging-'));
  try {
    const layer = join(staging, 'layer.tar');
    tar(layer, rootfsDir, ['--sort=name', '.']);
    const diffId = await sha256File(layer);
    const rootfsArchive = join(outDir, rootfsArchiveName);
    await pipeline(createReadStream(layer), createGzip({ level: 9 }), createWriteStream(rootfsArchive));

    const created = new Date(epoch * 1000).toISOString();
    const config = JSON.stringify({
      architecture,
      os: 'linux',
      created,
      config: runConfig(version),
      rootfs: { type: 'layers', diff_ids: [`sha256:${diffId}`] },
      history: [{ created, created_by: `npm run image: ${rootfsArchiveName} (scripts/image/build.js)` }],
    });
    const configDigest = createHash('sha256').update(config).digest('hex');
    const configName = `${configDigest}.json`;
    writeFileSync(join(staging, configName), config);
    mkdirSync(join(staging, diffId));
    linkSync(layer, join(staging, diffId, 'layer.tar'));
    writeFileSync(
      join(staging, 'manifest.json'),
      JSON.stringify([{ Config: configName, RepoTags: [tag], Layers: [`${diffId}/layer.tar`] }]),
    );
    const imageArchive = join(outDir, imageArchiveName);
    tar(imageArchive, staging, ['manifest.json', configName, `${diffId}/layer.tar`]);
    return {
      imageArchive,
      imageBytes: statSync(imageArchive).size,
      rootfsArchive,
      rootfsGzipBytes: statSync(rootfsArchive).size,
      layerBytes: statSync(layer).size,
      configDigest: `sha256:${configDigest}`,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
