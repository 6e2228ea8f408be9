/** A small appointment-reminder app: sends now, schedules for tomorrow, cancels and moves reminders, and takes delivery and reply webhooks (STOP opts a patient out). */

import { type ClientOptions, type SmsMessage, type WebhookPayload, createClient } from 'sms-emulator/client';

export interface Reminder {
  id: string;
  patient: string;
  text: string;
  /** The latest status the SMS service told us about. */
  status: string;
  /** When it goes out; null when sent at once. */
  schedule: string | null;
}

export interface ReminderApp {
  /** Sends a reminder now; refuses a patient who opted out. */
  sendNow(patient: string, text: string): Promise<Reminder>;
  /** Schedules a reminder for this time tomorrow (by the app's clock). */
  remindTomorrow(patient: string, text: string): Promise<Reminder>;
  /** Cancels a scheduled reminder. */
  cancel(id: string): Promise<void>;
  /** Moves a scheduled reminder, and changes its text when given. */
  reschedule(id: string, at: Date, text?: string): Promise<Reminder>;
  /** Takes one webhook payload; answers the HTTP status to give the SMS service. */
  handleWebhook(payload: WebhookPayload): number;
  reminder(id: string): Reminder | undefined;
  isOptedOut(patient: string): boolean;
  /** Replies received, newest last. */
  readonly replies: readonly { from: string; text: string }[];
}

const day = 24 * 60 * 60 * 1000;

/** How to reach the SMS service, and the app's clock (default the system's; a test gives the emulator's, `sms.now()`). */
export interface ReminderAppOptions extends ClientOptions {
  now?: () => Date;
}

export function createReminderApp({ now = () => new Date(), ...sms }: ReminderAppOptions): ReminderApp {
  const client = createClient(sms);
  const reminders = new Map<string, Reminder>();
  const optedOut = new Set<string>();
  const replies: { from: string; text: string }[] = [];
  const keep = (message: SmsMessage, patient: string): Reminder => {
    const reminder = {
      id: message.id,
      patient,
      text: message.message,
      status: message.status,
      schedule: message.schedule,
    };
    reminders.set(message.id, reminder);
    return reminder;
  };
  const refuseOptedOut = (patient: string): void => {
    if (optedOut.has(patient)) throw new Error(`${patient} opted out of reminders`);
  };
  return {
    async sendNow(patient, text) {
      refuseOptedOut(patient);
      return keep(
        await client.send({ recipient: patient, message: text, client_reference: `patient:${patient}` }),
        patient,
      );
    },
    async remindTomorrow(patient, text) {
      refuseOptedOut(patient);
      const schedule = new Date(now().getTime() + day);
      return keep(
        await client.schedule({ recipient: patient, message: text, schedule, client_reference: `patient:${patient}` }),
        patient,
      );
    },
    async cancel(id) {
      await client.delete(id);
      reminders.delete(id);
    },
    async reschedule(id, at, text) {
      const reminder = reminders.get(id);
      if (!reminder) throw new Error(`no reminder ${id}`);
      return keep(await client.edit(id, { schedule: at, message: text }), reminder.patient);
    },
    handleWebhook(payload) {
      const number = payload.recipient[0] ?? '';
      if (payload.type === 'sms-reply') {
        replies.push({ from: number, text: payload.message });
        if (payload.message.trim().toUpperCase() === 'STOP') optedOut.add(number);
        return 200;
      }
      const reminder = reminders.get(payload.id);
      if (reminder) reminder.status = payload.status;
      return 200;
    },
    reminder: (id) => reminders.get(id),
    isOptedOut: (patient) => optedOut.has(patient),
    replies,
  };
}
