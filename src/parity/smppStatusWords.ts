/**
 * The SMPP delivery receipt words (`stat:` of a receipt, SMPP 3.4 §5.2.28's message states) and the emulator status
 * each one is read as in a delivery log: providers export their receipts in these words, so a log in them replays.
 */

import type { LegStatus } from '../domain/message.js';

/** Each word, the emulator status it is read as, and why that one. */
export const smppStatusWords: Readonly<Record<string, { status: LegStatus; why: string }>> = {
  ENROUTE: { status: 'submitted', why: 'in the network on its way: handed on, no outcome yet' },
  ACCEPTD: {
    status: 'submitted',
    why: 'accepted by the network for the subscriber (providers send it as an acknowledgement), no outcome yet',
  },
  DELIVRD: { status: 'delivered', why: 'delivered to the handset' },
  UNDELIV: { status: 'undelivered', why: 'not delivered: the number is inactive or unreachable' },
  EXPIRED: { status: 'expired', why: 'its validity period ended with no outcome' },
  REJECTD: {
    status: 'undelivered',
    why: 'refused by the network (barred, not a subscriber): not delivered; the app acts on it as on UNDELIV',
  },
  DELETED: {
    status: 'undelivered',
    why: 'deleted in the network before delivery: not delivered (`cancelled` is a leg cancelled before it went out)',
  },
  UNKNOWN: {
    status: 'undelivered',
    why: 'the network ended it in a state it does not name: the app never learns it arrived',
  },
};

/** The emulator status an SMPP receipt word (any case) is read as; undefined for any other word. */
export function smppStatus(word: string): LegStatus | undefined {
  return Object.hasOwn(smppStatusWords, word.toUpperCase()) ? smppStatusWords[word.toUpperCase()]?.status : undefined;
}
