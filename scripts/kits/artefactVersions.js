// One version number (decision 0002): after the kits' build steps, every artefact in kits/dist/ is at package.json's
// version: the Python wheel and sdist file names, each Maven artifact's version folders, each Go module's @v/list in the
// proxy layout (the Go module's version lives nowhere else), the PHP archives', Ruby gems' and npm tarballs' names. npm run kits fails
// on any other.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every path under `folder` whose name passes `wanted`, depth first. */
function walk(folder, wanted, found = []) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) walk(path, wanted, found);
    else if (wanted(name)) found.push(path);
  }
  return found;
}

/**
 * Answers what was checked, one line per kind of artefact; throws naming each artefact at another version. `kits`
 * limits the check to those kits' artefacts (a run that built some kits leaves the others' as they were).
 */
export function checkArtefactVersions(dist, version, kits) {
  const wanted = (kit) => kits === undefined || kits.includes(kit);
  const wrong = [];
  const checked = [];
  const python = join(dist, 'python');
  if (wanted('python') && existsSync(python)) {
    const files = readdirSync(python).filter((name) => name.endsWith('.whl') || name.endsWith('.tar.gz'));
    for (const name of files) {
      const found = /^[^-]+-([^-]+?)(?:-|\.tar\.gz$)/.exec(name)?.[1];
      if (found !== version) wrong.push(`python/${name} is at ${found}`);
    }
    checked.push(`python: ${files.length} files`);
  }
  const maven = join(dist, 'maven');
  if (wanted('java') && existsSync(maven)) {
    // An artifact's folder holds maven-metadata*.xml and one folder per version.
    const metadata = walk(maven, (name) => /^maven-metadata.*\.xml$/.test(name) && !name.endsWith('.sha1'));
    const artifacts = [...new Set(metadata.map((path) => join(path, '..')))];
    for (const artifact of artifacts) {
      const versions = readdirSync(artifact).filter((name) => statSync(join(artifact, name)).isDirectory());
      for (const found of versions)
        if (found !== version) wrong.push(`maven/${relative(maven, artifact)} has ${found}`);
    }
    checked.push(`maven: ${artifacts.length} artifacts`);
  }
  const goproxy = join(dist, 'goproxy');
  if (wanted('go') && existsSync(goproxy)) {
    const lists = walk(goproxy, (name) => name === 'list');
    for (const list of lists) {
      const versions = readFileSync(list, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '');
      for (const found of versions)
        if (found !== `v${version}`) wrong.push(`goproxy/${relative(goproxy, list)} lists ${found}`);
    }
    checked.push(`goproxy: ${lists.length} modules`);
  }
  // The PHP kit's package archives and the Ruby kit's gems name their version: <name>-<version>.zip, <name>-<version>[-<platform>].gem.
  for (const kind of ['php', 'ruby']) {
    const folder = join(dist, kind);
    if (!wanted(kind) || !existsSync(folder)) continue;
    const files = readdirSync(folder).filter((name) => name.endsWith('.zip') || name.endsWith('.gem'));
    for (const name of files)
      if (!name.includes(`-${version}.`) && !name.includes(`-${version}-`))
        wrong.push(`${kind}/${name} is not at ${version}`);
    checked.push(`${kind}: ${files.length} files`);
  }
  // The Node module's npm folder: <name>-<version>.tgz, the module and the sms-emulator it was packed beside.
  const npm = join(dist, 'npm');
  if (wanted('node') && existsSync(npm)) {
    const files = readdirSync(npm).filter((name) => name.endsWith('.tgz'));
    for (const name of files) if (!name.endsWith(`-${version}.tgz`)) wrong.push(`npm/${name} is not at ${version}`);
    checked.push(`npm: ${files.length} files`);
  }
  if (wrong.length > 0)
    throw new Error(`kits: artefacts at a version other than package.json's ${version}:\n  ${wrong.join('\n  ')}`);
  return checked;
}
