/** The whole emulator state as plain JSON data, and its schema for importing it back. */

import { z } from 'zod';
import { scopes } from './store.js';

const statusValue = z.enum(['scheduled', 'pending', 'staged', 'submitted', 'delivered', 'undelivered', 'expired', 'blist', 'noroute', 'failed', 'cancelled']);
const change = z.strictObject({ status: statusValue, at: z.number() });
const environment = z.enum(['live', 'sandbox']);

const message = z.strictObject({
  id: z.string(),
  type: z.enum(['sms', 'sms-reply']),
  environment,
  apiKey: z.string(),
  recipients: z.array(z.string()),
  text: z.string(),
  clientReference: z.string().nullable(),
  scheduleAt: z.number().nullable(),
  status: statusValue,
  credit: z.number(),
  createdAt: z.number(),
  deliveredAt: z.number().nullable(),
  legs: z.array(z.strictObject({ recipient: z.string(), status: statusValue, history: z.array(change), plan: z.array(change) })),
  history: z.array(change),
  inReplyTo: z.string().optional(),
  outcomeOverride: z.array(z.strictObject({ status: statusValue.exclude(['scheduled']), afterMs: z.number() })).optional(),
});

const wallet = z.strictObject({ balance: z.number().int().min(0), webhookUrl: z.string().nullable(), optOuts: z.array(z.string()) });

export const snapshotSchema = z.strictObject({
  version: z.literal(1),
  clock: z.strictObject({ now: z.number(), mode: z.enum(['realtime', 'manual']), speed: z.number().positive() }),
  random: z.record(z.string(), z.tuple([z.number(), z.number(), z.number(), z.number()])),
  accounts: z.array(
    z.strictObject({
      apiKey: z.string(),
      signingSecret: z.string(),
      scopes: z.array(z.enum(scopes)),
      live: wallet,
      sandbox: wallet,
    }),
  ),
  messages: z.array(message),
  replies: z.array(message),
});

export type Snapshot = z.output<typeof snapshotSchema>;
