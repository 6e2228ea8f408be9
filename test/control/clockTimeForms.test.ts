/** A clock's view gives its time twice, told apart: `now` in epoch milliseconds, `time` the same instant in ISO 8601 at the API's offset. */

import { afterEach, expect, test } from 'vitest';
import { openApiDocument } from '../../src/control/openapi.js';
import { type Emulator, connect, createEmulator } from '../../src/index.js';

let emulator: Emulator | undefined;
afterEach(() => emulator?.close());

test("every clock view's now is epoch milliseconds and its time the same instant as ISO 8601 at the API's offset, and the document says which is which", async () => {
  emulator = createEmulator({ clock: 'manual', startTime: '2026-11-18T09:46:40+02:00' });
  const { origin } = await emulator.listen({ port: 0 });
  const remote = connect(origin);
  const world = await remote.worlds.create({ startTime: '2030-01-01T00:00:00Z' });
  const views = [await remote.clock.state(), world.clock, await remote.clocks.advance(world.clock.id, '1h30m')];
  for (const { now, time } of views) {
    expect(Number.isInteger(now)).toBe(true);
    expect(Date.parse(time)).toBe(now);
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+02:00$/);
  }
  expect(views[0]).toMatchObject({ now: Date.parse('2026-11-18T07:46:40Z'), time: '2026-11-18T09:46:40+02:00' });
  const clock = (
    openApiDocument() as {
      components: { schemas: { Clock: { properties: Record<string, { description?: string }> } } };
    }
  ).components.schemas.Clock.properties;
  expect(clock.now?.description).toMatch(/epoch milliseconds/);
  expect(clock.time?.description).toMatch(/ISO 8601 text at the API's offset/);
});
