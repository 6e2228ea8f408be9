/** The network fault kinds: how the transport fails instead of an API answer, whether the request was handled first, and the one-off request header. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { fitsWallTimer, parseDuration } from '../../domain/time.js';

export const networkFaultKinds = [
  'reset',
  'hang-up',
  'truncated',
  'html',
  'slow-body',
  'reset-after-handling',
] as const;
export type NetworkFaultKind = (typeof networkFaultKinds)[number];

/**
 * Whether the request is handled (a send stored and charged, an edit or delete done) before the transport fails.
 * A reset, a hang-up and a proxy's page stop it before it reaches the API; a cut or slow body is the real answer's.
 */
export const handledBeforeFailing: Readonly<Record<NetworkFaultKind, boolean>> = {
  reset: false,
  'hang-up': false,
  html: false,
  truncated: true,
  'slow-body': true,
  'reset-after-handling': true,
};

/** Whether the connection ends with an RST (the client reads ECONNRESET), handled first or not. */
export const resetsConnection: Readonly<Record<NetworkFaultKind, boolean>> = {
  reset: true,
  'hang-up': false,
  html: false,
  truncated: false,
  'slow-body': false,
  'reset-after-handling': true,
};

/** How the transport fails one request. */
export interface NetworkFailure {
  kind: NetworkFaultKind;
  /** slow-body: the wall time the body is spread over. */
  trickleMs: number;
}

/** slow-body's spread when the fault gives no `trickle`. */
export const defaultTrickleMs = 2_000;

/** The request header that fails one request's transport, as a scenario's `network` fault would. */
export const networkHeaderName = 'x-emulator-network';

/** `reset`, `html`, …, or `slow-body@500ms`; anything else is INVALID_EMULATOR_HEADER (nothing is handled). */
export function parseNetworkHeader(value: string): NetworkFailure {
  const [kind = '', spread] = value.trim().split('@');
  const trickleMs = spread === undefined ? defaultTrickleMs : parseDuration(spread);
  const known = (networkFaultKinds as readonly string[]).includes(kind);
  if (
    !known ||
    trickleMs === undefined ||
    (spread !== undefined && !fitsWallTimer(spread)) ||
    (spread !== undefined && kind !== 'slow-body')
  ) {
    throw new ApiError(
      'INVALID_EMULATOR_HEADER',
      `X-Emulator-Network ${quoteExcerpt(value)} is not valid. Give one of ${networkFaultKinds.join(', ')}, or slow-body@<duration> such as slow-body@500ms.`,
    );
  }
  return { kind: kind as NetworkFaultKind, trickleMs };
}
