/**
 * The built-in scenario, active when no other is given: magic recipient numbers for every outcome. Its rules
 * and replies also answer after any other scenario's own, unless that scenario says `magicNumbers: false`.
 */

import type { ScenarioInput } from './schema.js';

/** Documented in docs/scenarios.md like a payment provider's test card numbers; scenarios/default.yaml is the same. */
export const magicNumbers = {
  delivered: '27830000001',
  undelivered: '27830000002',
  expired: '27830000003',
  blist: '27830000004',
  noroute: '27830000005',
  delayed: '27830000006',
  reply: '27830000007',
  optOut: '27830000008',
  optOutLowerCase: '27830000009',
} as const;

export const defaultScenario: ScenarioInput = {
  version: 1,
  description: 'Magic numbers: each documented recipient gets one outcome; any other number is delivered after 5 s.',
  // It spells the magic numbers out itself, so the automatic copy after its rules would only repeat them.
  magicNumbers: false,
  rules: [
    { name: 'delivered', match: { recipient: magicNumbers.delivered }, outcome: 'delivered' },
    { name: 'undelivered', match: { recipient: magicNumbers.undelivered }, outcome: 'undelivered' },
    { name: 'expired', match: { recipient: magicNumbers.expired }, outcome: 'expired' },
    { name: 'blist', match: { recipient: magicNumbers.blist }, outcome: 'blist' },
    { name: 'noroute', match: { recipient: magicNumbers.noroute }, outcome: 'noroute' },
    {
      name: 'delayed delivery',
      match: { recipient: magicNumbers.delayed },
      outcome: {
        timeline: [
          { status: 'submitted', after: '1s' },
          { status: 'delivered', after: '10m' },
        ],
      },
    },
    { name: 'delivered with a reply', match: { recipient: magicNumbers.reply }, outcome: 'delivered' },
    { name: 'delivered with an opt-out reply', match: { recipient: magicNumbers.optOut }, outcome: 'delivered' },
    {
      name: 'delivered with a lower-case opt-out reply',
      match: { recipient: magicNumbers.optOutLowerCase },
      outcome: 'delivered',
    },
  ],
  replies: [
    { name: 'reply', match: { recipient: magicNumbers.reply }, after: '30s', text: 'Thanks, got it!' },
    { name: 'opt-out', match: { recipient: magicNumbers.optOut }, after: '30s', text: 'STOP' },
    // As many handsets send it: the keyword is matched in any case, spaces trimmed.
    { name: 'lower-case opt-out', match: { recipient: magicNumbers.optOutLowerCase }, after: '30s', text: 'stop' },
  ],
};
