/** Reads scenario sources (file paths or objects) into one validated scenario; used before the server starts. */

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ScenarioError, mergeScenarios, parseScenario, validateScenario } from './parse.js';
import type { Scenario } from './schema.js';

export type ScenarioSource = string | Record<string, unknown>;

export function loadScenarios(sources: readonly ScenarioSource[]): Scenario {
  return mergeScenarios(
    sources.map((source, index) => {
      if (typeof source !== 'string') return validateScenario(source, `scenario[${index}]`);
      let text: string;
      try {
        text = readFileSync(scenarioPath(source), 'utf8');
      } catch (error) {
        throw new ScenarioError(`${source}: cannot read the scenario file: ${(error as Error).message}`);
      }
      return parseScenario(text, source);
    }),
  );
}

/** The scenarios shipped with the package (this file is at src/ or dist/engine/scenario/). */
const bundledDir = fileURLToPath(new URL('../../../scenarios/', import.meta.url));

/** A path as given, or, for a bare name such as `flaky-network` that is no file here, the bundled scenario of that name. */
export function scenarioPath(source: string): string {
  if (!/^[a-z0-9-]+$/.test(source) || existsSync(source)) return source;
  const bundled = `${bundledDir}${source}.yaml`;
  return existsSync(bundled) ? bundled : source;
}
