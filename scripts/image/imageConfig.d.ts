/** The container image's settings (see imageConfig.js). */
export const imageOutDir: string;
export const imageArchiveName: string;
export const rootfsArchiveName: string;
export const inImage: { node: string; emulator: string; healthcheck: string; readyFile: string };
export const imageUser: { name: string; uid: number; gid: number };
export const containerPort: number;
export function imageTag(version: string): string;
export function runConfig(version: string): {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  WorkingDir: string;
  ExposedPorts: Record<string, object>;
  StopSignal: string;
  Healthcheck: { Test: string[]; Interval: number; Timeout: number; StartPeriod: number; Retries: number };
  Labels: Record<string, string>;
};
