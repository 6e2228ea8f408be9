/** The differential run's scripted session (see session.js). */
export const sessionOptions: { seed: string; clock: 'manual'; startTime: string; webhookSigningSecret: string };
export const wallClockKeys: string[];
export interface RecordedCall {
  call: string;
  answer: unknown;
  webhooks?: unknown[];
}
export interface Recording {
  build: string;
  calls: RecordedCall[];
}
export function recordSession(
  distDir: string,
  options?: { change?: (call: string, answer: unknown) => unknown },
): Promise<Recording>;
