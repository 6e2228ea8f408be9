/** The two environments every account has, `live` and `sandbox`, and where each one's API lives: the one home their types, schemas and callers derive from. */

// No zod here: the standalone client (sms-emulator/client) reads these and loads no schema library.

export const environments = ['live', 'sandbox'] as const;
export type Environment = (typeof environments)[number];

/** The environment a request, a command or a scenario step means when it names none. */
export const defaultEnvironment: Environment = 'live';

export function isEnvironment(value: string): value is Environment {
  return (environments as readonly string[]).includes(value);
}

/** Where each environment lives under the origin: the path of its base URL (`urls.sandbox`), the API at `<base>/v1`. */
export const environmentPaths: Readonly<Record<Environment, string>> = { live: '', sandbox: '/sandbox' };

/** Where each environment's API lives under the origin. */
export const apiPrefixes: Readonly<Record<Environment, string>> = {
  live: `${environmentPaths.live}/v1`,
  sandbox: `${environmentPaths.sandbox}/v1`,
};

/** The environment whose API `path` is under (`/v1…` or `/sandbox/v1…`), or undefined for any other path. */
export function apiEnvironment(path: string): Environment | undefined {
  for (const environment of environments) {
    const prefix = apiPrefixes[environment];
    if (path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 0x2f))
      return environment;
  }
  return undefined;
}
