/** Why a text costs what it costs, under this emulator's pricing: the control face of explainCost. */

import { type CostExplanation, explainCost } from '../../domain/costExplanation.js';
import type { CostInput } from '../inputs.js';
import { costInput } from '../inputs.js';
import type { OperationDeps, OperationTable } from '../operation.js';
import { body } from '../argSpecs.js';

export function explainTextCost({ core }: OperationDeps, { text, recipients = 1 }: CostInput): CostExplanation {
  return explainCost(text, { recipients, pricing: core.options.pricing });
}

export const costRow = {
  method: 'POST',
  path: '/cost',
  answer: 'CostExplanation',
  args: [body],
  input: costInput,
  inputName: 'cost question',
  summary:
    '`{"text": "…", "recipients"?: 1}`: why the text costs what it costs under the emulator\'s pricing: encoding, units, segments, every character that forced UCS-2 (position, UTF-16 index, code point, name, the GSM-7 text usually meant), the credits, and what the text would cost with every suggestion applied.',
  run: explainTextCost,
} satisfies OperationTable['cost'];
