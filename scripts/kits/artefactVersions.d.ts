/** Every artefact in kits/dist/ at package.json's version (see artefactVersions.js): what was checked, one line a kind. */
export function checkArtefactVersions(dist: string, version: string, kits?: readonly string[]): string[];
