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
  /** late: how long the notification is held; duplicate: the wait between one copy and the next (virtual ms). */
  afterMs: number;
}

/** What the behaviours that touch one notification make of it; the dispatcher carries it out. */
export interface DeliveryPlan {
  /** Deliveries in all: the notification and its re-sends (same event id and body). */
  deliveries: number;
  /** Held this long on the message's clock before its first try (late), in virtual ms; undefined when not held. */
  holdMs: number | undefined;
  /** The wait between one delivery and the next re-send of it (duplicate), in virtual ms: a gateway's re-sends come apart. */
  spacingMs: number;
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
  /** Whether it takes `times` (what it counts, its default and least value), or `after` (what it means, its default duration). */
  times?: { counts: string; default: number; least: number };
  after?: { means: string; default: string };
  /** Which notifications it touches, by their status (a leg status or `reply`); all when absent. */
  touches?: (status: string) => boolean;
  /** What it makes of the plan. Two of one name both apply: re-sends add up, the longest hold, spacing and the most ignored answers count. */
  shape: (plan: DeliveryPlan, applied: AppliedBehaviour) => void;
}

const deliveryBehaviours = {
  duplicate: {
    does: "posts the notification `times` times (2 or more, default 2), `after` apart (default 0s: together), each copy a re-send under the first one's event id (`X-Emulator-Event-Id`) with the same body, as `check-receiver`'s `duplicate` check does; the webhook log keeps each copy, `duplicateOf` naming the one it repeats",
    imitates:
      're-sends whenever it did not get a 200: a receiver that stored the notification and then timed out gets it again',
    times: { counts: 'deliveries in all', default: 2, least: 2 },
    after: { means: 'the wait between one copy and the next', default: '0s' },
    // However many duplicates match, one cap holds: memory and posts stay bounded.
    shape: (plan, { times, afterMs }) => {
      plan.deliveries = Math.min(maxDeliveriesPerNotification, plan.deliveries + times - 1);
      plan.spacingMs = Math.max(plan.spacingMs, afterMs);
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
    after: { means: 'how long the notification is held', default: '6h' },
    shape: (plan, { afterMs }) => {
      mark(plan, 'late');
      plan.holdMs = Math.max(plan.holdMs ?? 0, afterMs);
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
    times: { counts: 'answers ignored', default: 1, least: 1 },
    shape: (plan, { times }) => {
      mark(plan, 'answer-ignored');
      plan.ignoredAnswers = Math.max(plan.ignoredAnswers, times);
    },
  },
} as const satisfies Record<string, BehaviourRow>;

export type DeliveryBehaviourName = keyof typeof deliveryBehaviours;
export const deliveryBehaviourNames = Object.keys(deliveryBehaviours) as [
  DeliveryBehaviourName,
  ...DeliveryBehaviourName[],
];

const rows: Record<DeliveryBehaviourName, BehaviourRow> = deliveryBehaviours;

/** Adds a mark once. */
function mark(plan: DeliveryPlan, name: DeliveryBehaviourName): void {
  if (!plan.marks.includes(name)) plan.marks.push(name);
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
  return rows[name].times?.default ?? 1;
}

/** A behaviour's default `after`, as written in the table (0s where it takes none). */
export function defaultAfter(name: DeliveryBehaviourName): string {
  return rows[name].after?.default ?? '0s';
}

/** Whether a rule's `times` fits its behaviour: one that takes it, at least its least value. */
export function timesFits(name: DeliveryBehaviourName, times: number): boolean {
  const taken = rows[name].times;
  return taken !== undefined && times >= taken.least;
}

/** Whether a rule's behaviour takes `after`. */
export function takesAfter(name: DeliveryBehaviourName): boolean {
  return rows[name].after !== undefined;
}

/** What `times` and `after` mean, by behaviour, with their defaults and the refusal of a misplaced one. */
export function parameterNotes(): { times: string; after: string; timesMisplaced: string; afterMisplaced: string } {
  const taking = (parameter: 'times' | 'after') => deliveryBehaviourNames.filter((name) => rows[name][parameter]);
  const times = taking('times').map((name) => {
    const { counts, default: fallback, least } = rows[name].times as NonNullable<BehaviourRow['times']>;
    return { name, least, text: `${name}: ${counts} (${least} or more, default ${fallback})` };
  });
  const after = taking('after').map((name) => ({ name, ...(rows[name].after as NonNullable<BehaviourRow['after']>) }));
  return {
    times: `${times.map(({ text }) => text).join('; ')}.`,
    after: `${after.map(({ name, means, default: fallback }) => `${name}: ${means}, in virtual time (default ${fallback})`).join('; ')}.`,
    timesMisplaced: `times goes with ${times.map(({ name, least }) => `${name} (${least} or more)`).join(' or ')}`,
    afterMisplaced: `after goes with behaviour: ${after.map(({ name }) => name).join(' or ')}`,
  };
}

/** Each behaviour with what it does, for the scenario schema's description. */
export function behavioursDescribed(): string {
  return deliveryBehaviourNames.map((name) => `${name}: ${rows[name].does}`).join('; ');
}

/** What the behaviours that touch one notification, in order, make of it. */
export function planDelivery(applied: readonly AppliedBehaviour[]): DeliveryPlan {
  const plan: DeliveryPlan = {
    deliveries: 1,
    holdMs: undefined,
    spacingMs: 0,
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
