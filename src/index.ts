/**
 * The public library surface of sms-emulator; nothing else is exported. The documentation lives on
 * the declarations (a comment here would never reach an editor's hover).
 */

// The emulator, its handle and everything the handle takes and answers.
export { createEmulator } from './emulator.js';
export type { Emulator, EmulatorUrls, ListenOptions, ReportOptions } from './emulator.js';
export type { TimelineEntry, TimelineKind, TimelineReport } from './ui/timelineReport.js';
export type { EmulatorOptions, ResolvedOptions } from './options.js';
export type {
  AccountInput,
  AccountPatch,
  ClockCommand,
  MessageFilter,
  OptOutTarget,
  ReplyInput,
  WebhookChaosInput,
  WebhookFilterInput,
} from './control/inputs.js';
export type { Scenario, ScenarioInput } from './engine/scenario/schema.js';
export type { AccountView } from './engine/inspection.js';
export type { ChangeView, MessageView } from './domain/messageView.js';
export type { Snapshot } from './state/snapshot.js';
export type { WebhookAnswer, WebhookDelivery, WebhookReceiver } from './webhooks/transport.js';
export type { Answer, ControlHandle, HandleMode } from './control/handle.js';
export type { ChaosView, ClockView, LimitsView, OptOutView } from './control/views.js';
export type { Page, PageInput } from './domain/list.js';
export type { JournalEntry, JournalFilter } from './journal/requestJournal.js';
export type { EmulatorEvents } from './events.js';
export type { OutcomeDecider, OutcomeContext, Timeline, TimelineStep } from './engine/outcomes.js';
export type { WebhookAttempt, WebhookEvent, WebhookState } from './domain/webhookEvent.js';
export type { WebhookChaos } from './webhooks/behaviourRates.js';
export type { MessageWait, WaitOptions, WaitStatus } from './control/waitFor.js';

// Signing, segments and errors, as the emulator computes them.
export { signRequest, canonicalString } from './domain/signing.js';
export { countSegments } from './domain/segments.js';
export type { Encoding, SegmentCount } from './domain/segments.js';
/** Why a text costs what it costs: encoding, segments, the characters that forced UCS-2 and what was meant, credits. */
export { explainCost } from './domain/costExplanation.js';
export type { CostExplanation, CostTrigger } from './domain/costExplanation.js';
export type { Spend, Spender } from './domain/spend.js';
export { errorCatalogue, ApiError } from './domain/errors.js';
export type { ErrorCode, ErrorDefinition } from './domain/errors.js';

// Test tools: the typed API client, a webhook receiver, and the emulator as a process.
export { createClient, SmsApiError } from './client/index.js';
// The client's calls, options, errors and the API's bodies as the client types them: the client's one list.
export type * from './client/publicTypes.js';
export { createWebhookCatcher } from './testing/webhookCatcher.js';
export { checkReceiver } from './webhooks/checkReceiver.js';
export type { CheckAnswer, CheckReceiverOptions, CheckResult, ReceiverReport } from './webhooks/checkReceiver.js';
export { receiverCheckNames } from './webhooks/receiverChecks.js';
export type { ReceiverCheckName } from './webhooks/receiverChecks.js';
export type { CaughtRequest, CatcherResponse, WebhookCatcher } from './testing/webhookCatcher.js';
export { startEmulator } from './testing/startEmulator.js';
export { connect } from './testing/connect.js';
export type { ConnectOptions, RemoteEmulator } from './testing/connect.js';
export type { EmulatorProcess, ReadyInfo, StartOptions } from './testing/startEmulator.js';
export { emulatorTranscript } from './parity/emulatorTranscript.js';
export type { EmulatorTranscriptOptions } from './parity/emulatorTranscript.js';
export { parityDiff } from './parity/parityDiff.js';
export type { ParityDiffOptions, ParityReport } from './parity/parityDiff.js';
export type { Finding } from './parity/groupFindings.js';
export type { FindingKind, ParityRulesInput, Tier } from './parity/parityRules.js';
export { parseTranscript } from './parity/transcript.js';
export type { Transcript, TranscriptEvent, TranscriptHeader } from './parity/transcript.js';
export { startRecorder } from './parity/recorder.js';
export type { Recorder, RecorderOptions } from './parity/recorder.js';
export { parityRecheck } from './parity/recheck.js';
export type { RecheckOptions } from './parity/recheck.js';
export { deliveryLogReceipts, incidentScenario, transcriptReceipts } from './parity/incidentScenario.js';
export type {
  DeliveryLogOptions,
  IncidentLeg,
  IncidentOptions,
  IncidentScenario,
  Receipt,
} from './parity/incidentScenario.js';
