/**
 * The other direction: a committed transcript's requests reissued at a provider, in order, with the provider's own
 * key and secret, and the answers compared as a replay's are. For a scheduled job, not for every change: it calls
 * the real provider, and webhooks and replies (which a phone makes) are not rechecked.
 */

import { settings } from '../options.js';
import { Bindings } from './bindings.js';
import { compareTranscript } from './compareTranscript.js';
import { type ParityReport, parityReport } from './parityDiff.js';
import { type ParityRulesInput, parityRules } from './parityRules.js';
import type { Replayed } from './replay.js';
import { reissue } from './replay.js';
import { type Transcript, parseTranscript } from './transcript.js';

export interface RecheckOptions {
  /** The provider's base URL. */
  upstream: string;
  apiKey: string;
  signingSecret: string;
  rules?: string | ParityRulesInput;
  /** The fetch to use (default the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Compare times as offsets from the start, within the rules' tolerance. Off by default: the requests go out one
   * after another, not at their recorded times, so only a time's presence and shape are compared.
   */
  keepTime?: boolean;
}

/**
 * Reissues `transcript` at `options.upstream` and reports what the provider now answers differently.
 *
 * @example
 * const report = await parityRecheck(readFileSync('session.jsonl', 'utf8'), { upstream, apiKey, signingSecret });
 */
export async function parityRecheck(transcript: string | Transcript, options: RecheckOptions): Promise<ParityReport> {
  const parsed = typeof transcript === 'string' ? parseTranscript(transcript) : transcript;
  const rules = parityRules(options.rules);
  if (!options.keepTime) rules.timeToleranceMs = Number.POSITIVE_INFINITY;
  const base = options.upstream.replace(/\/$/, '');
  const bindings = new Bindings({
    startMs: Date.now(),
    timeZone: parsed.header.timeZone,
    ...(parsed.header.values ? { values: parsed.header.values } : {}),
  });
  bindings.key(options.apiKey);
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const answers: Replayed['answers'] = new Map();
  for (const event of parsed.events) {
    if (event.type !== 'request') continue;
    const answer = await reissue(event, bindings, options, send, base);
    answers.set(event.id, { ...answer, t: event.t });
  }
  // Webhooks are not caught here: the transcript's are left out of the comparison rather than all reported missing.
  const withoutWebhooks: Transcript = {
    header: parsed.header,
    events: parsed.events.filter(
      (event) => event.type !== 'webhook' && event.type !== 'webhook-answer' && event.type !== 'reply',
    ),
    lines: parsed.lines.filter((_, index) => {
      const type = parsed.events[index]?.type;
      return type !== 'webhook' && type !== 'webhook-answer' && type !== 'reply';
    }),
  };
  const findings = compareTranscript(
    withoutWebhooks,
    { answers, webhooks: [], unmatchedReplies: [], limits: defaultLimits() },
    rules,
  );
  return parityReport(withoutWebhooks, findings);
}

/** The provider's field limits as the emulator's defaults have them, for telling which errors apply to a request. */
function defaultLimits(): Replayed['limits'] {
  return {
    batchLimit: settings.batchLimit.schema.parse(undefined) as number,
    messageLimit: settings.messageLimit.schema.parse(undefined) as number,
  };
}
