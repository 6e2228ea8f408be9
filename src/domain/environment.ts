/** The two environments every account has, `live` and `sandbox`, and where each one's API lives: the one home their types, schemas and callers derive from. */

// No zod here: the standalone client (sms-emulator/client) reads these and loads no schema library.

export const environments = ['live', 'sandbox'] as const;
export type Environment = (typeof environments)[number];

/** What a call that names no environment means: live, as the API's own base address is. */
export const defaultEnvironment: Environment = 'live';

/** Where each environment's API lives under the origin. */
export const apiPrefixes: Readonly<Record<Environment, string>> = { live: '/v1', sandbox: '/sandbox/v1' };

/** The environment whose API `path` is under (`/v1…` or `/sandbox/v1…`), or undefined for any other path. */
export function apiEnvironment(path: string): Environment | undefined {
  for (const environment of environments) {
    const prefix = apiPrefixes[environment];
    if (path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 0x2f))
      return environment;
  }
  return undefined;
}
