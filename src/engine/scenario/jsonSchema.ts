/** The JSON Schema of scenario files, generated from the same zod definition that validates them. */

import { z } from 'zod';
import { scenarioSchema } from './schema.js';

export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'sms-emulator scenario',
  };
}
