/** The X-Emulator-Outcome request header: a named outcome, or a timeline such as `submitted@2s,undelivered@30s`. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { type LegStatus, deliveryOutcomes, reachableStatuses, walkProblem } from '../../domain/message.js';
import { parseDuration } from '../../domain/time.js';
import type { Timeline } from '../outcomes.js';
import { namedTimeline } from './match.js';
import { maxTimelineSteps } from './schema.js';

export const outcomeHeaderName = 'x-emulator-outcome';

const settable = new Set<string>(reachableStatuses);

export function parseOutcomeHeader(value: string): Timeline {
  const text = value.trim();
  const named = namedTimeline(text);
  if (named) return named;
  const steps: { status: LegStatus; afterMs: number }[] = [];
  const parts = text.split(',');
  if (parts.length > maxTimelineSteps)
    throw invalid(value, `it has ${parts.length} steps, more than ${maxTimelineSteps}`);
  for (const part of parts) {
    const [status = '', delay = '0'] = part.trim().split('@');
    const afterMs = parseDuration(delay);
    if (!settable.has(status) || afterMs === undefined) {
      throw invalid(value, `${quoteExcerpt(part.trim())} is not status@delay`);
    }
    steps.push({ status: status as LegStatus, afterMs });
  }
  const walk = walkProblem(steps.map((step) => step.status));
  if (walk) throw invalid(value, walk.problem);
  return steps;
}

function invalid(value: string, reason: string): ApiError {
  return new ApiError(
    'INVALID_EMULATOR_HEADER',
    `X-Emulator-Outcome ${quoteExcerpt(value)} is not valid: ${reason}. Give one of ${deliveryOutcomes.join(', ')}, or a timeline such as submitted@2s,undelivered@30s.`,
  );
}
