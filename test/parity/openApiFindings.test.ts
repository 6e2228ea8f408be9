/** parity diff with an OpenAPI document: each recorded answer and webhook validated, each violation a finding. */

import { beforeAll, expect, test } from 'vitest';
import { openApiDocument } from '../../src/control/openapi.js';
import { parityDiff } from '../../src/parity/parityDiff.js';
import { everyOperationSession, sessionTranscript } from '../support/paritySession.js';

let transcript: string;

beforeAll(async () => {
  transcript = await sessionTranscript(everyOperationSession);
});

type Json = Record<string, any>;

test("the emulator's own session validates against the emulator's own OpenAPI document with no finding", async () => {
  const report = await parityDiff(transcript, { openapi: openApiDocument() });
  expect(report.findings).toEqual([]);
});

test('a drift the emulator shares with the provider is still found: an answer field the document requires is one finding listing every line', async () => {
  const document = structuredClone(openApiDocument()) as Json;
  const message = document.components.schemas.Message;
  message.required = [...message.required, 'network'];
  const report = await parityDiff(transcript, { openapi: document });
  // Each place a message is answered is one finding: the send and read answers, and the list's items.
  expect(report.findings.map(({ tier, kind, field }) => ({ tier, kind, field }))).toEqual([
    { tier: 'error', kind: 'schema-violation', field: 'answer.body.network' },
    { tier: 'error', kind: 'schema-violation', field: 'answer.body.list[*].network' },
  ]);
  expect(report.findings[0]!.lines.length).toBeGreaterThan(3);
  expect(report.findings[0]!.message).toMatch(
    /POST \/v1\/messages answered 201: must have required property 'network'/,
  );
  expect(report.passed).toBe(false);
});

test('a webhook whose status word the document does not allow is a violation at webhook.payload.status', async () => {
  const document = structuredClone(openApiDocument()) as Json;
  const status = document.components.schemas.DeliveryNotification.properties.status;
  status.enum = status.enum.filter((word: string) => word !== 'submitted');
  const report = await parityDiff(transcript, { openapi: document });
  expect(report.findings.map(({ kind, field }) => ({ kind, field }))).toEqual([
    { kind: 'schema-violation', field: 'webhook.payload.status' },
  ]);
  expect(report.findings[0]!.message).toContain('must be equal to one of the allowed values');
});

test("an OpenAPI 3.0 document's nullable fields and a server base path are read as the provider means them", async () => {
  const document = {
    openapi: '3.0.3',
    servers: [{ url: 'https://api.example.test/v1' }, { url: 'https://api.example.test/sandbox/v1' }],
    paths: {
      '/messages/balance': {
        get: {
          responses: {
            200: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['balance'],
                    properties: { balance: { type: 'integer' }, note: { type: 'string', nullable: true } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
  const lines = transcript
    .trim()
    .split('\n')
    .map((row) => JSON.parse(row) as Json);
  const reads = lines.filter((line) => line.type === 'answer' && typeof line.body?.balance === 'number');
  for (const read of reads) read.body.note = null;
  reads[0]!.body.balance = 'plenty';
  const edited = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
  const report = await parityDiff(edited, { openapi: document, rules: { version: 1, ignore: ['answer.body'] } });
  const violations = report.findings.filter((finding) => finding.kind === 'schema-violation');
  expect(violations.map(({ field }) => field)).toContain('answer.body.balance');
  expect(violations.map(({ field }) => field)).not.toContain('answer.body.note');
  // Operations the document lacks answered as successes are undeclared; refused ones (404, 405) are not.
  expect(violations.find((finding) => finding.field === 'answer')?.message).toMatch(/has no POST operation/);
});
