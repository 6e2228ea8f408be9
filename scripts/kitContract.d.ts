/** The kit contract as the emulator's own code computes it (test-vectors/kit-contract.json; see kitContract.js). */
export type KitLanguage = 'python' | 'go' | 'java' | 'php' | 'ruby';
export type JsonSchema = Record<string, unknown>;
export interface KitOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  params: string[];
  query: string[];
  pages: boolean;
  body: boolean;
  bodyText?: true;
  input?: JsonSchema;
  status: number;
  answer: string | null;
  open: boolean;
  names: Record<KitLanguage, string>;
}
/** One duration setting of every front door: its environment variable (if any), default text and its milliseconds. */
export interface KitDurationSetting {
  env?: string;
  default: string;
  description: string;
  ms: number;
}
/** The settings every front door shares (src/domain/kitSettings.ts). */
export interface KitSettings {
  errorPrefix: string;
  startTimeout: KitDurationSetting;
  controlTimeout: KitDurationSetting;
  waitWithin: KitDurationSetting;
  /** The largest webhook body a catcher reads: the maxBodySize option's default. */
  webhookBodyLimit: { option: string; bytes: number; description: string };
  durationGrammar: {
    rule: string;
    pattern: string;
    units: Record<string, number>;
    bareNumberUnit: string;
    minExclusiveMs: number;
    maxMs: number;
    problem: string;
    examples: { text: string; ms: number | null }[];
  };
}
export interface KitContract {
  description: string;
  version: string;
  resolution: {
    order: string[];
    env: { url: string; token: string; command: string; startTimeout: string };
    minimumNode: number;
    minimumNodeVersion: string;
    notFound: string;
  };
  settings: KitSettings;
  container: {
    description: string;
    image: string;
    repository: string;
    imageEnv: string;
    port: number;
    healthPath: string;
    controlTokenEnv: string;
    allowedHostsEnv: string;
  };
  start: { args: string[]; readyFile: JsonSchema; bundleEntry: string };
  paths: { control: string; api: Record<string, string>; base: Record<string, string> };
  world: { request: JsonSchema; answer: JsonSchema };
  errorBody: JsonSchema;
  timeline: { rule: string; maxLength: number; hashLength: number; examples: { test: string; file: string }[] };
  operations: KitOperation[];
  shortcuts: { id: string; via: string; summary: string; names: Record<KitLanguage, string> }[];
  answers: Record<string, JsonSchema>;
}
export function kitContract(): KitContract;
export function kitOperationNames(id: string): Record<KitLanguage, string>;
export function timelineFileName(testId: string): string;
