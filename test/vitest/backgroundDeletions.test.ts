import { expect, test } from 'vitest';
import { BackgroundDeletions } from '../../src/vitest/backgroundDeletions.js';

/** A deletion the test ends when it chooses. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((done, fail) => ((resolve = done), (reject = fail)));
  return { promise, resolve, reject };
}

test('ended() waits until every deletion under way has ended', async () => {
  const deletions = new BackgroundDeletions();
  const first = deferred();
  const second = deferred();
  deletions.add(first.promise);
  deletions.add(second.promise);
  let ended = false;
  const waiting = deletions.ended().then(() => (ended = true));
  first.resolve();
  await Promise.resolve();
  await Promise.resolve();
  expect(ended).toBe(false);
  second.resolve();
  await waiting;
  expect(ended).toBe(true);
});

test('a deletion that failed is not lost: ended() rejects with it, and nothing is an unhandled rejection', async () => {
  const deletions = new BackgroundDeletions();
  const failing = deferred();
  deletions.add(failing.promise);
  failing.reject(new Error('the emulator process is gone'));
  // Left a while before anyone waits: a rejection the set did not hold would be reported unhandled here.
  await new Promise((resolve) => setTimeout(resolve, 5));
  deletions.add(Promise.resolve());
  await expect(deletions.ended()).rejects.toThrow('the emulator process is gone');
});

test('a deletion that ended leaves the set, so a long file holds only those under way', async () => {
  const deletions = new BackgroundDeletions();
  for (let index = 0; index < 1000; index++) deletions.add(Promise.resolve());
  const open = deferred();
  deletions.add(open.promise);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect((deletions as unknown as { pending: Set<unknown> }).pending.size).toBe(1);
  open.resolve();
  await deletions.ended();
});
