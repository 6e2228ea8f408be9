// Writes scenarios/scenario.schema.json and scenarios/transcript.schema.json from their zod definitions (run after `npm run build`).
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchema } from '../dist/engine/scenario/jsonSchema.js';
import { transcriptJsonSchema } from '../dist/parity/transcript.js';

for (const [name, schema] of [
  ['scenario.schema.json', scenarioJsonSchema()],
  ['transcript.schema.json', transcriptJsonSchema()],
]) {
  const target = new URL(`../scenarios/${name}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${target.pathname}`);
}
