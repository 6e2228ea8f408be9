/** The app's reminder code: books an appointment reminder the day before, through the SMS API at `baseUrl`. */

import { createClient } from 'sms-emulator/client';

export interface SmsAccount {
  baseUrl: string;
  apiKey: string;
  signingSecret: string;
}

/** Schedules "See you tomorrow at <time>" for 24 hours before the appointment; answers the message's id. */
export async function bookReminder(account: SmsAccount, phone: string, appointment: Date): Promise<string> {
  const client = createClient(account);
  const time = appointment.toISOString().slice(11, 16);
  const sent = await client.schedule({
    recipient: phone,
    message: `See you tomorrow at ${time}`,
    schedule: new Date(appointment.getTime() - 86_400_000),
  });
  return sent.id;
}
