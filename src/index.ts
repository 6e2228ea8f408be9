/** The public library surface of sms-emulator; nothing else is exported. */

/**
 * Creates an in-memory emulator.
 * @example const emulator = createEmulator({ clock: 'manual', seed: 'ci' }); await emulator.listen({ port: 0 });
 */
export { createEmulator } from './emulator.js';
export type { Emulator, EmulatorUrls, ListenOptions, ReportOptions } from './emulator.js';
export type { TimelineEntry, TimelineKind, TimelineReport } from './ui/timelineReport.js';
/**
 * The `Signature` header for a body, as the API computes it.
 * @example headers.Signature = signRequest({ recipient: ['27831234567'], message: 'Hi' }, 'sk_test_sms_emulator');
 */
export { signRequest, canonicalString } from './domain/signing.js';
/**
 * Segments and encoding of a text (GSM-7 or UCS-2), as the emulator charges them.
 * @example countSegments('Hello') // { encoding: 'GSM-7', units: 5, segments: 1 }
 */
export { countSegments } from './domain/segments.js';
/**
 * Every error code with its HTTP status and description.
 * @example errorCatalogue.SIGNATURE_MISMATCH.status // 400
 */
export { errorCatalogue, ApiError } from './domain/errors.js';
export type { ErrorCode } from './domain/errors.js';
/**
 * A local webhook receiver for tests, with waitFor and scripted answers.
 * @example const catcher = await createWebhookCatcher(); await catcher.waitFor((r) => r.body.status === 'delivered');
 */
export { createWebhookCatcher } from './testing/webhookCatcher.js';
export { createClient, SmsApiError } from './client/index.js';
export { startEmulator } from './testing/startEmulator.js';
export type { EmulatorProcess, ReadyInfo, StartOptions } from './testing/startEmulator.js';
export type * from './client/index.js';
export type { CaughtRequest, CatcherResponse, WebhookCatcher } from './testing/webhookCatcher.js';
export type { WebhookAttempt, WebhookEvent, WebhookState } from './webhooks/log.js';
export type { WebhookChaos } from './webhooks/dispatcher.js';
export type { EmulatorOptions, ResolvedOptions } from './options.js';
export type { EmulatorEvents } from './events.js';
export type { OutcomeDecider, OutcomeContext, Timeline, TimelineStep } from './engine/outcomes.js';
export type { AccountView, MessageView } from './engine/inspection.js';
export type { ClockView } from './engine/control.js';
export type { Snapshot } from './state/snapshot.js';
