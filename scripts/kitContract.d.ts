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
  start: { args: string[]; readyFile: JsonSchema; bundleEntry: string };
  paths: { control: string; api: Record<string, string>; base: Record<string, string> };
  world: { request: JsonSchema; answer: JsonSchema };
  errorBody: JsonSchema;
  timeline: { rule: string; maxLength: number; examples: { test: string; file: string }[] };
  operations: KitOperation[];
  shortcuts: { id: string; via: string; summary: string; names: Record<KitLanguage, string> }[];
  answers: Record<string, JsonSchema>;
}
export function kitContract(): KitContract;
export function kitOperationNames(id: string): Record<KitLanguage, string>;
export function timelineFileName(testId: string): string;
