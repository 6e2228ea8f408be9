/** Subscriptions for `emulator.on`: listeners get read-only copies, and one that throws cannot break the emulator. */

import { formatInstant } from '../domain/time.js';
import type { EmulatorEmitter, EmulatorEvents, EngineEvents, EventName } from '../events.js';
import { messageView } from '../domain/messageView.js';

type Converters = { [E in EventName]: (payload: EngineEvents[E], offsetMinutes: number) => EmulatorEvents[E] };

const toPublic: Converters = {
  'message.created': ({ message }, offset) => ({ message: messageView(message, offset) }),
  'leg.status': ({ message, leg, status, at }, offset) => {
    const view = messageView(message, offset);
    return {
      message: view,
      leg: view.legs[message.legs.indexOf(leg)] as EmulatorEvents['leg.status']['leg'],
      status,
      at: formatInstant(at, offset),
    };
  },
  'reply.received': ({ reply, original }, offset) => ({
    reply: messageView(reply, offset),
    original: messageView(original, offset),
  }),
  'webhook.attempt': ({ event, attempt }) => ({ event: structuredClone(event), attempt: { ...attempt } }),
  'webhook.settled': ({ event }) => ({ event: structuredClone(event) }),
  'clock.incident': ({ incident, clock }) => ({ incident: structuredClone(incident), clock }),
  'clock.moved': (moved) => structuredClone(moved),
  'account.changed': (changed) => ({ ...changed }),
  'state.replaced': (replaced) => ({ ...replaced }),
  'fault.injected': (fault) => ({ ...fault }),
};

/** Subscribes a user's listener; the copies are made only for events someone listens to. Returns the unsubscribe function. */
export function subscribe<E extends EventName>(
  events: EmulatorEmitter,
  offsetMinutes: number,
  event: E,
  listener: (payload: EmulatorEvents[E]) => void,
): () => void {
  const convert = toPublic[event] as (payload: EngineEvents[E], offsetMinutes: number) => EmulatorEvents[E];
  return events.on(event, (payload) => {
    try {
      listener(convert(payload, offsetMinutes));
    } catch (error) {
      // A listener's failure is the test's, not the request's: report it and carry on.
      console.error(`sms-emulator: a listener of "${event}" threw; the emulator carried on:`, error);
    }
  });
}
