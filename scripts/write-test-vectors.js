// Writes test-vectors/*.json (the shared vectors and the kit contract) from the emulator's own code (run after `npm run build`): `npm run vectors`.
import { writeFileSync } from 'node:fs';
import { kitContract } from './kitContract.js';
import { scheduleVectors, signingVectors, webhookVectors } from './testVectors.js';

const files = {
  'signing.json': signingVectors(),
  'schedule.json': scheduleVectors(),
  'webhooks.json': await webhookVectors(),
  'kit-contract.json': kitContract(),
};
for (const [name, vectors] of Object.entries(files)) {
  const target = new URL(`../test-vectors/${name}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(vectors, null, 2)}\n`);
  console.log(`wrote ${target.pathname}`);
}
