/** A scenario handed to a control call as YAML or JSON text, or an object, checked as a scenario file is. */

import type { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { ScenarioError, parseScenario, validateScenario } from '../engine/scenario/parse.js';
import { accountScenarioSchema, scenarioSchema } from '../engine/scenario/schema.js';

/** The scenario `input` holds, validated by `schema`; a bad one is SCENARIO_INVALID naming `source`. */
export function readScenario<S extends typeof scenarioSchema | typeof accountScenarioSchema>(
  input: unknown,
  source: string,
  schema: S,
): z.output<S> {
  try {
    return (
      typeof input === 'string'
        ? parseScenario(input, source, schema)
        : validateScenario(input, source, undefined, schema)
    ) as z.output<S>;
  } catch (error) {
    if (error instanceof ScenarioError) throw new ApiError('SCENARIO_INVALID', error.message);
    throw error;
  }
}
