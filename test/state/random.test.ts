import { expect, test } from 'vitest';
import { createRandom } from '../../src/state/random.js';

test('ids for a seed stay the same version-4 UUIDs from one release to the next', () => {
  const random = createRandom('pin');
  expect([random.uuid(), random.uuid(), random.uuid()]).toEqual([
    '33cf20c6-6888-4390-bcc5-b2849512be45',
    '0fd5aca3-2e1b-41b0-9c74-6c08c7ff1365',
    'a130e287-797a-47a4-97df-d9ec0636108e',
  ]);
  for (let i = 0; i < 1000; i++)
    expect(random.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
