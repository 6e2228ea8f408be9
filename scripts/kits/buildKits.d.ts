/** The order of `npm run kits` with its steps injected (see buildKits.js). */
export function kitsWithBuildStep(root: string): string[];
export function requestedKits(available: string[], args: string[], env: Record<string, string | undefined>): string[];
export function buildKits(options: {
  kits: string[];
  steps: { prepare: () => Promise<void> | void; kit: (kit: string) => Promise<void> | void };
  lock: () => Promise<() => Promise<void> | void>;
  log: (line: string) => void;
}): Promise<{ built: string[]; failed: { kit: string; error: string }[] }>;
