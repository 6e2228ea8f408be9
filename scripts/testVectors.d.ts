/** The shared test vectors as the emulator's own code computes them (test-vectors/*.json; see testVectors.js). */
export interface VectorFile<Case> {
  description: string;
  cases: Case[];
}
export function signingVectors(): VectorFile<{
  name: string;
  secret: string;
  fields: Record<string, unknown>;
  canonical: string;
  signature: string;
}>;
export function scheduleVectors(): VectorFile<{ name: string; instant: string; offset: string; schedule: string }>;
export function webhookVectors(): Promise<
  VectorFile<{ name: string; kind: 'delivery' | 'reply' | 'stop-reply'; payload: Record<string, unknown> }>
>;
export function segmentVectors(): VectorFile<{
  name: string;
  text: string;
  encoding: 'GSM-7' | 'UCS-2';
  units: number;
  segments: number;
  ucs2Trigger: string | null;
}>;
