// Writes test-vectors/*.json (the shared vectors and the kit contract) from the emulator's own code (run after `npm run
// build`), then every kit's generated surface from the contract (scripts/kitgen/): `npm run vectors`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { kitContract } from './kitContract.js';
import { generatedKitFiles } from './kitgen/generatedKitFiles.js';
import { scheduleVectors, segmentVectors, signingVectors, webhookVectors } from './testVectors.js';

const contract = kitContract();
const files = {
  'signing.json': signingVectors(),
  'schedule.json': scheduleVectors(),
  'segments.json': segmentVectors(),
  'webhooks.json': await webhookVectors(),
  'kit-contract.json': contract,
};
for (const [name, vectors] of Object.entries(files)) {
  const target = new URL(`../test-vectors/${name}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(vectors, null, 2)}\n`);
  console.log(`wrote ${target.pathname}`);
}
// The kits are generated from the contract as written (parsed back), exactly what their tests read.
for (const file of await generatedKitFiles(JSON.parse(JSON.stringify(contract)))) {
  const target = new URL(`../${file.path}`, import.meta.url);
  mkdirSync(dirname(target.pathname), { recursive: true });
  writeFileSync(target, file.text);
  console.log(`wrote ${file.path} (${file.language})`);
}
