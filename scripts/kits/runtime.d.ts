/** The carried Node runtime of the kits (see runtime.js). */
export interface RuntimePin {
  package: string;
  version: string;
  platforms: Record<string, { wheelPlatform: string; sha256: string; member: string; file: string }>;
}
export const cacheDir: string;
export function readRuntimePin(root: string): RuntimePin;
export function hostPlatform(pin: RuntimePin): string | undefined;
export function writeRuntimes(
  root: string,
  target: string,
  platforms?: string[],
  python?: string,
  cache?: string,
): Record<string, { binary: string; bytes: number; rewritten: boolean }>;
export function hostRuntimeBinary(root: string): string;
