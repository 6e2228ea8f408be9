/** The network fault kinds: how the transport fails instead of an API answer, and whether the request was handled first. */

export const networkFaultKinds = ['reset', 'hang-up', 'truncated', 'html', 'slow-body', 'reset-after-handling'] as const;
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

/** How the transport fails one request. */
export interface NetworkFailure {
  kind: NetworkFaultKind;
  /** slow-body: the wall time the body is spread over. */
  trickleMs: number;
}

/** slow-body's spread when the fault gives no `trickle`. */
export const defaultTrickleMs = 2_000;
