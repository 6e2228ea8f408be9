/**
 * An app's webhook receiver for delivery notifications, in two versions: the first draft, with two classic bugs, and
 * the fixed one. Both keep each message's latest status and count the messages delivered (for a dashboard).
 */

export interface Notification {
  id: string;
  type: 'sms' | 'sms-reply';
  status: string;
  recipient: string[];
}

export interface DeliveryReceiver {
  /** Takes one notification; answers the HTTP status to send back. */
  handle(notification: Notification): number;
  /** How many messages the dashboard shows as delivered. */
  deliveredCount(): number;
  statusOf(id: string): string | undefined;
  /** How many notifications of the message it acted on (what its test-only state route tells check-receiver). */
  notificationsOf(id: string): number;
}

/**
 * The first draft. Bug 1: a notification for an id it has not seen `submitted` first is a 500 (it looks the message
 * up and fails), so a receipt before `submitted`, or for an id it never stored, fails and is re-sent, then dropped.
 * Bug 2: every `delivered` notification adds one, so a duplicate (a gateway re-sends when an answer is lost) counts twice.
 */
export function firstDraftReceiver(): DeliveryReceiver {
  const statuses = new Map<string, string>();
  const acted = new Map<string, number>();
  let delivered = 0;
  return {
    handle(notification) {
      if (notification.type !== 'sms') return 200;
      if (notification.status !== 'submitted' && !statuses.has(notification.id)) return 500;
      statuses.set(notification.id, notification.status);
      acted.set(notification.id, (acted.get(notification.id) ?? 0) + 1);
      if (notification.status === 'delivered') delivered += 1;
      return 200;
    },
    deliveredCount: () => delivered,
    statusOf: (id) => statuses.get(id),
    notificationsOf: (id) => acted.get(id) ?? 0,
  };
}

/** Where each status stands: a later notification of an earlier status (submitted after delivered) changes nothing. */
const rank: Record<string, number> = { pending: 0, submitted: 1 };

/** The fixed receiver: any id is taken (stored on first sight), a status never goes back, and a message counts once. */
export function fixedReceiver(): DeliveryReceiver {
  const statuses = new Map<string, string>();
  const deliveredIds = new Set<string>();
  // Each message's notifications by status: a re-sent one (same status) is the same notification, acted on once.
  const seen = new Map<string, Set<string>>();
  return {
    handle(notification) {
      if (notification.type !== 'sms') return 200;
      const known = statuses.get(notification.id);
      if (known === undefined || (rank[notification.status] ?? 2) >= (rank[known] ?? 2))
        statuses.set(notification.id, notification.status);
      seen.set(notification.id, (seen.get(notification.id) ?? new Set()).add(notification.status));
      if (notification.status === 'delivered') deliveredIds.add(notification.id);
      return 200;
    },
    deliveredCount: () => deliveredIds.size,
    statusOf: (id) => statuses.get(id),
    notificationsOf: (id) => seen.get(id)?.size ?? 0,
  };
}
