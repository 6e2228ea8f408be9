/** The delivery behaviours' one table: what each does to a notification's deliveries, and everything that derives from it. */

import { expect, test } from 'vitest';
import {
  type AppliedBehaviour,
  behaviourTable,
  behaviourTouches,
  deliveryBehaviourNames,
  maxDeliveriesPerNotification,
  planDelivery,
} from '../../src/domain/deliveryBehaviour.js';
import { scenarioSchema } from '../../src/engine/scenario/schema.js';
import { answerSchemas, fromZod } from '../../src/control/answerSchemas.js';

const applied = (name: AppliedBehaviour['name'], times = 1, afterMs = 0): AppliedBehaviour => ({
  name,
  times,
  afterMs,
});

test('a notification no behaviour touches is posted once, at once, unmarked', () => {
  expect(planDelivery([])).toEqual({
    deliveries: 1,
    holdMs: undefined,
    spacingMs: 0,
    ignoredAnswers: 0,
    heldForNext: false,
    orphan: false,
    marks: [],
  });
});

test('duplicates add up across matching rules, capped at the documented most deliveries per notification', () => {
  expect(planDelivery([applied('duplicate', 3), applied('duplicate', 2)]).deliveries).toBe(4);
  const many = Array.from({ length: 300 }, () => applied('duplicate', maxDeliveriesPerNotification));
  expect(planDelivery(many).deliveries).toBe(maxDeliveriesPerNotification);
});

test('of two duplicates spaced apart the widest spacing counts, as the longest hold does', () => {
  expect(planDelivery([applied('duplicate', 2, 2_000), applied('duplicate', 2, 5_000)])).toMatchObject({
    deliveries: 3,
    spacingMs: 5_000,
  });
});

test('of two late or answer-ignored behaviours the longest hold and the most ignored answers count; the marks follow the table, not the rules', () => {
  const plan = planDelivery([
    applied('answer-ignored', 2),
    applied('late', 1, 60_000),
    applied('late', 1, 5_000),
    applied('answer-ignored', 4),
    applied('reorder'),
    applied('orphan'),
  ]);
  expect(plan).toMatchObject({ holdMs: 60_000, ignoredAnswers: 4, heldForNext: true, orphan: true });
  expect(plan.marks).toEqual(['reorder', 'late', 'answer-ignored']);
});

test("a reorder touches only a leg's submitted notification; the other behaviours touch every status and replies", () => {
  expect(behaviourTouches('reorder', 'submitted')).toBe(true);
  expect(behaviourTouches('reorder', 'delivered')).toBe(false);
  expect(behaviourTouches('reorder', 'reply')).toBe(false);
  for (const name of deliveryBehaviourNames.filter((other) => other !== 'reorder'))
    expect(behaviourTouches(name, 'reply')).toBe(true);
});

test("the scenario schema, the webhook log's answer schema and the docs table name exactly the table's behaviours", () => {
  const schema = fromZod(scenarioSchema) as {
    properties: { webhooks: { items: { properties: { behaviour: { enum: string[]; description: string } } } } };
  };
  const behaviour = schema.properties.webhooks.items.properties.behaviour;
  expect(behaviour.enum).toEqual(deliveryBehaviourNames);
  for (const name of deliveryBehaviourNames) expect(behaviour.description).toContain(`${name}: `);
  const event = answerSchemas().WebhookEvent as { properties: { behaviours: { items: { enum: string[] } } } };
  expect(event.properties.behaviours.items.enum).toEqual(deliveryBehaviourNames);
  expect(behaviourTable().split('\n').slice(2)).toHaveLength(deliveryBehaviourNames.length);
});
