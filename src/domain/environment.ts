/** The two environments every account has, `live` and `sandbox`: the one list their type, schema and every caller derive from. */

import { z } from 'zod';

export const environments = ['live', 'sandbox'] as const;
export type Environment = (typeof environments)[number];

/** An environment named in control input, a filter or a file. */
export const environmentSchema = z.enum(environments);
