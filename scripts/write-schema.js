// Writes scenarios/scenario.schema.json from the zod definition (run after `npm run build`).
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchema } from '../dist/engine/scenario/jsonSchema.js';

const target = new URL('../scenarios/scenario.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
