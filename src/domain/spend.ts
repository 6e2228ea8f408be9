/** What an account spent and on what: its credits, its messages and the five costliest, each in one line saying why it cost that. */

import { z } from 'zod';
import { costTriggerSchema, explainCost } from './costExplanation.js';
import type { MessageRecord } from './message.js';
import { plural } from './plural.js';
import { encodings } from './segments.js';

/** How many of the costliest messages a spend names. */
const topCount = 5;
/** The most characters of a message's text, and of its recipients, a spender's line quotes. */
const quotedChars = 60;
const quotedRecipients = 3;

/** One of the costliest messages: what it cost, to how many, how it was encoded and what forced UCS-2. */
export const spenderSchema = z.strictObject({
  id: z.string(),
  credit: z.int().describe('What the message was charged.'),
  recipients: z.int().describe('How many numbers it went to.'),
  encoding: z.enum(encodings),
  segments: z.int().describe('Segments per recipient.'),
  trigger: costTriggerSchema.nullable().describe('The first character that forced UCS-2; null for a GSM-7 text.'),
  line: z
    .string()
    .describe(
      'The spender in one line: `2 credits: to 27831234567, 27831234568: "Your parcel’s here" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by "’" at 12)`.',
    ),
});
export type Spender = z.output<typeof spenderSchema>;

/** An account's spend over both environments: a scheduled message counts at what it was charged (nothing until it goes out). */
export const spendSchema = z.strictObject({
  account: z.string(),
  credits: z.int().describe('The credits its messages were charged, in all.'),
  messages: z.int().describe('How many messages it has (scheduled and deleted scheduled ones included).'),
  top: z.array(spenderSchema).describe('The five costliest messages, costliest first (ties in send order).'),
  summary: z
    .string()
    .describe(
      'The whole spend as a failure shows it: `spent 3 credits on 2 messages. Top spenders:` and a line per spender (` none` without messages).',
    ),
});
export type Spend = z.output<typeof spendSchema>;

function spender(message: MessageRecord): Spender {
  const recipients = message.recipients.length;
  const { encoding, segments, triggers } = explainCost(message.text, { recipients });
  const trigger = triggers[0] ?? null;
  const shown = message.recipients.slice(0, quotedRecipients).join(', ');
  const more = recipients > quotedRecipients ? ` and ${recipients - quotedRecipients} more` : '';
  const chars = [...message.text];
  const text = chars.length > quotedChars ? `${chars.slice(0, quotedChars).join('')}…` : message.text;
  const forced = trigger === null ? '' : `; UCS-2 forced by ${JSON.stringify(trigger.char)} at ${trigger.position}`;
  const line = `${plural(message.credit, 'credit')}: to ${shown}${more}: ${JSON.stringify(text)} (${encoding}, ${plural(segments, 'segment')} × ${plural(recipients, 'recipient')}${forced})`;
  return { id: message.id, credit: message.credit, recipients, encoding, segments, trigger, line };
}

/**
 * The spend of account `apiKey` over its messages, given in send order: the credits they were charged, how many, and
 * the five costliest explained.
 * @example accountSpend('pk_test', messages).summary // 'spent 3 credits on 2 messages. Top spenders:\n  - 2 credits: …'
 */
export function accountSpend(apiKey: string, messages: readonly MessageRecord[]): Spend {
  const credits = messages.reduce((sum, message) => sum + message.credit, 0);
  const top = [...messages]
    .sort((a, b) => b.credit - a.credit)
    .slice(0, topCount)
    .map(spender);
  const lines = top.length === 0 ? ' none' : top.map((one) => `\n  - ${one.line}`).join('');
  return {
    account: apiKey,
    credits,
    messages: messages.length,
    top,
    summary: `spent ${plural(credits, 'credit')} on ${plural(messages.length, 'message')}. Top spenders:${lines}`,
  };
}
