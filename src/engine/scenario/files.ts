/** Reads scenario sources (file paths or objects) into one validated scenario; used before the server starts. */

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiError } from '../../domain/errors.js';
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

/** The names of the bundled scenarios (`happy-path`, `flaky-network`, ...), which work outside a checkout too. */
export function bundledScenarioNames(): string[] {
  return readdirSync(bundledDir)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => file.slice(0, -'.yaml'.length))
    .sort();
}

/** A bundled scenario's YAML text by name; an unknown name is CONTROL_NOT_FOUND naming the bundled ones. */
export function bundledScenarioText(name: string): { text: string; source: string } {
  const names = bundledScenarioNames();
  if (!names.includes(name))
    throw new ApiError(
      'CONTROL_NOT_FOUND',
      `No bundled scenario is named ${JSON.stringify(name)}; the bundled ones are ${names.join(', ')}.`,
    );
  return { text: readFileSync(`${bundledDir}${name}.yaml`, 'utf8'), source: `bundled scenario ${name}` };
}

/** Each bundled scenario's name and the description it gives of itself. */
export function bundledScenarios(): { name: string; description: string }[] {
  return bundledScenarioNames().map((name) => {
    const { text, source } = bundledScenarioText(name);
    return { name, description: parseScenario(text, source).description ?? '' };
  });
}
