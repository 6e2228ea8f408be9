/** Reads scenario sources (file paths or objects) into one validated scenario; used before the server starts. */

import { readFileSync } from 'node:fs';
import { ScenarioError, mergeScenarios, parseScenario, validateScenario } from './parse.js';
import type { Scenario } from './schema.js';

export type ScenarioSource = string | Record<string, unknown>;

export function loadScenarios(sources: readonly ScenarioSource[]): Scenario {
  return mergeScenarios(
    sources.map((source, index) => {
      if (typeof source !== 'string') return validateScenario(source, `scenario[${index}]`);
      let text: string;
      try {
        text = readFileSync(source, 'utf8');
      } catch (error) {
        throw new ScenarioError(`${source}: cannot read the scenario file: ${(error as Error).message}`);
      }
      return parseScenario(text, source);
    }),
  );
}
