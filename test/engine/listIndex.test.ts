import { expect, test } from 'vitest';
import type { MessageRecord } from '../../src/domain/message.js';
import { ListIndex } from '../../src/engine/listIndex.js';

const record = (i: number): MessageRecord =>
  ({
    text: `Note ${i} ${i % 7 === 0 ? 'Target' : ''}`,
    recipients: [`2783${String(i).padStart(7, '0')}`],
  }) as MessageRecord;

/** What a scan of every record finds: the positions the prefilter must include. */
function scan(list: readonly MessageRecord[], needle: string): number[] {
  return list.flatMap((message, position) => (message.text.toLowerCase().includes(needle) ? [position] : []));
}

test('a prefilter built a slice at a time, between appends and deletes, finds what a scan finds', () => {
  const list = Array.from({ length: 50 }, (_, i) => record(i));
  const index = new ListIndex(list);
  index.advance(20);
  list.push(record(50), record(51));
  index.advance(20);
  expect(index.candidates('search', 'target')).toEqual(scan(list, 'target'));
  list.splice(3, 1); // a delete: positions move
  index.advance(10);
  list.push(record(52));
  expect(index.candidates('search', 'target')).toEqual(scan(list, 'target'));
  list.splice(list.length - 1, 1);
  list.splice(40, 1);
  index.advance(5);
  expect(index.candidates('search', 'target')).toEqual(scan(list, 'target'));
  expect(index.candidates('recipient', '27830000049')).toEqual([
    list.findIndex((message) => message.recipients[0] === '27830000049'),
  ]);
});
