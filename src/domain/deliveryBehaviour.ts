/**
 * Delivery behaviours, one table: what a real gateway does to its notifications, each row its name (also the mark the
 * webhook log puts on what it touched), which notifications it touches and what it does to the outgoing deliveries.
 * The scenario schema, the types, the webhook log's marks, its answer schema and the older rate options derive from
 * it; the dispatcher carries out the plan it makes (docs/webhooks.md#delivery-behaviours).
 */

/**
 * The most times one notification is posted, however many `duplicate` behaviours match it (the account's, the
 * emulator's and the `webhookDuplicateRate` option's together): the notification and at most 9 re-sends.
 */
export const maxDeliveriesPerNotification = 10;

/** One behaviour as a matching rule hands it over: its name and its parameter. */
export interface AppliedBehaviour {
  name: DeliveryBehaviourName;
  /** duplicate: deliveries in all; answer-ignored: answers ignored. */
  times: number;
  /** late: how long the notification is held, in virtual ms. */
  afterMs: number;
}

/** What the behaviours that touch one notification make of it; the dispatcher carries it out. */
export interface DeliveryPlan {
  /** Deliveries in all: the notification and its re-sends (same event id and body). */
  deliveries: number;
  /** Held this long on the message's clock before its first try (late), in virtual ms; undefined when not held. */
  holdMs: number | undefined;
  /** How many 200 answers of each delivery count as lost (answer-ignored). */
  ignoredAnswers: number;
  /** Held until the message's next notification has been queued, which goes first (reorder). */
  heldForNext: boolean;
  /** One more notification like it for a message id the account never sent (orphan). */
  orphan: boolean;
  /** The marks every delivery carries, in the table's order; a re-send carries `duplicate` too, the orphan only `orphan`. */
  marks: DeliveryBehaviourName[];
}

interface BehaviourRow {
  /** What it does, as the scenario schema and the docs put it. */
  does: string;
  /** What a real gateway does that it imitates (docs/webhooks.md). */
  imitates: string;
  /** The parameter's default: `times` for duplicate and answer-ignored, `after` (a duration) for late. */
  times?: number;
  after?: string;
  /** Which notifications it touches, by their status (a leg status or `reply`); all when absent. */
  touches?: (status: string) => boolean;
  /** What it makes of the plan; the first of two matching behaviours of one name wins, but for `duplicate`. */
  shape: (plan: DeliveryPlan, applied: AppliedBehaviour) => void;
}

export const deliveryBehaviours = {
  duplicate: {
    does: "posts the notification `times` times (2 or more, default 2), each copy a re-send under the first one's event id (`X-Emulator-Event-Id`) with the same body, as `check-receiver`'s `duplicate` check does; the webhook log keeps each copy, `duplicateOf` naming the one it repeats",
    imitates:
      're-sends whenever it did not get a 200: a receiver that stored the notification and then timed out gets it again',
    times: 2,
    // However many duplicates match, one cap holds: memory and posts stay bounded.
    shape: (plan, { times }) => {
      plan.deliveries = Math.min(maxDeliveriesPerNotification, plan.deliveries + times - 1);
    },
  },
  reorder: {
    does: "holds a leg's `submitted` notification until the message's next one has been posted",
    imitates: 'carriers report through different paths: a delivery receipt can overtake the submission report',
    touches: (status) => status === 'submitted',
    shape: (plan) => {
      plan.heldForNext = true;
      mark(plan, 'reorder');
    },
  },
  late: {
    does: "holds the notification for `after` (default 6h) on the message's own clock (only that clock's moves bring it)",
    imitates: "a handset off for hours, a carrier's batch of receipts: the outcome arrives long after the app gave up",
    after: '6h',
    shape: (plan, { afterMs }) => {
      if (mark(plan, 'late')) plan.holdMs = afterMs;
    },
  },
  orphan: {
    does: 'posts one more copy for a message id the account never sent',
    imitates: 'receipts for messages sent from another system, a replayed or misrouted notification',
    shape: (plan) => {
      plan.orphan = true;
    },
  },
  'answer-ignored': {
    does: "takes the receiver's 200 as lost `times` times (default 1), so the retry rule follows",
    imitates: 'the answer lost on the way back (a proxy timeout): the gateway re-sends what was received',
    times: 1,
    shape: (plan, { times }) => {
      if (mark(plan, 'answer-ignored')) plan.ignoredAnswers = times;
    },
  },
} as const satisfies Record<string, BehaviourRow>;

export type DeliveryBehaviourName = keyof typeof deliveryBehaviours;
export const deliveryBehaviourNames = Object.keys(deliveryBehaviours) as [
  DeliveryBehaviourName,
  ...DeliveryBehaviourName[],
];

const rows: Record<DeliveryBehaviourName, BehaviourRow> = deliveryBehaviours;

/** Adds a mark once; whether it was new. */
function mark(plan: DeliveryPlan, name: DeliveryBehaviourName): boolean {
  if (plan.marks.includes(name)) return false;
  plan.marks.push(name);
  return true;
}

/** The behaviours as docs/webhooks.md tables them (`npm run docs` writes it there; a test holds the page to it). */
export function behaviourTable(): string {
  const lines = deliveryBehaviourNames.map((name) => `| \`${name}\` | ${rows[name].does} | ${rows[name].imitates} |`);
  return ['| behaviour | what it does | what a real gateway does that it imitates |', '|---|---|---|', ...lines].join(
    '\n',
  );
}

/** Whether a behaviour touches a notification of this status (a reorder only a leg's `submitted`). */
export function behaviourTouches(name: DeliveryBehaviourName, status: string): boolean {
  return rows[name].touches?.(status) ?? true;
}

/** A behaviour's default `times` (1 where it takes none). */
export function defaultTimes(name: DeliveryBehaviourName): number {
  return rows[name].times ?? 1;
}

/** The default `after` of a late notification, as written in the table. */
export const defaultLateAfter = deliveryBehaviours.late.after;

/** Each behaviour with what it does, for the scenario schema's description. */
export function behavioursDescribed(): string {
  return deliveryBehaviourNames.map((name) => `${name}: ${rows[name].does}`).join('; ');
}

/** What the behaviours that touch one notification, in order, make of it. */
export function planDelivery(applied: readonly AppliedBehaviour[]): DeliveryPlan {
  const plan: DeliveryPlan = {
    deliveries: 1,
    holdMs: undefined,
    ignoredAnswers: 0,
    heldForNext: false,
    orphan: false,
    marks: [],
  };
  for (const behaviour of applied) rows[behaviour.name].shape(plan, behaviour);
  // In the table's order, whatever the order of the rules that matched.
  plan.marks.sort((a, b) => deliveryBehaviourNames.indexOf(a) - deliveryBehaviourNames.indexOf(b));
  return plan;
}
