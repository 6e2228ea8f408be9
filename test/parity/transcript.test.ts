/** The transcript format: its JSON Schema is generated and current, accepts what the emulator writes, and bad lines are named. */

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect, test } from 'vitest';
import { TranscriptError, parseTranscript, transcriptJsonSchema } from '../../src/parity/transcript.js';
import { emulatorTranscript } from '../../src/parity/emulatorTranscript.js';
import { makeEmulator } from '../support/api.js';
import { everyOperationSession, inProcess } from '../support/paritySession.js';

const schemaFile = new URL('../../scenarios/transcript.schema.json', import.meta.url);

test('scenarios/transcript.schema.json is generated from the current definition (npm run schema)', () => {
  expect(JSON.parse(readFileSync(schemaFile, 'utf8'))).toEqual(JSON.parse(JSON.stringify(transcriptJsonSchema())));
});

test('every line the emulator writes is valid under the JSON Schema, and a line of another shape is not', async () => {
  const emulator = makeEmulator();
  await everyOperationSession(inProcess(emulator));
  const text = await emulatorTranscript(emulator);
  await emulator.close();
  const validate = new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  const rows = text.trim().split('\n');
  expect(rows.length).toBeGreaterThan(30);
  for (const row of rows) expect(validate(JSON.parse(row)), row).toBe(true);
  expect(validate({ t: 1, type: 'request', method: 'GET' })).toBe(false);
});

const header = '{"version":1,"type":"header","source":"edited","startTime":"2026-11-21T10:00:00Z","timeZone":"+02:00"}';

test('a line that is not JSON, or not an event, is refused naming its line', () => {
  expect(() => parseTranscript(`${header}\n\n{"t":0,"type":"request"`)).toThrow(/^line 3: not JSON/);
  expect(() => parseTranscript(`${header}\n{"t":-1,"type":"reply","message":"x","from":"1","text":"hi"}`)).toThrow(
    /^line 2: t: .*>=0/,
  );
  expect(() => parseTranscript(`${header}\n{"t":0,"type":"gossip"}`)).toThrow(TranscriptError);
});

test('a transcript saved with a byte order mark (a Windows editor) reads as the same transcript', () => {
  const text = `${header}\n{"t":0,"type":"reply","message":"x","from":"27831234567","text":"hi"}\n`;
  expect(parseTranscript(`\uFEFF${text}`)).toEqual(parseTranscript(text));
});

test('a transcript cut short after a request, before its answer, is refused naming the request line', () => {
  const request =
    '{"t":0,"type":"request","id":"r1","method":"GET","path":"/v1/messages/balance","environment":"live","headers":{}}';
  const answer = '{"t":0,"type":"answer","request":"r1","status":200,"body":{"balance":5}}';
  expect(() => parseTranscript(`${header}\n${request}\n${answer}\n`)).not.toThrow();
  expect(() => parseTranscript(`${header}\n${request}\n`)).toThrow(/^line 2: a request with no answer line/);
});

test('a line nested deeper than 512 levels is refused naming its line, before anything walks it; 512 levels are read', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const answer = (body: string) => `{"t":1,"type":"answer","request":"r1","status":200,"body":${body}}`;
  expect(() => parseTranscript(`${header}\n${answer(deep(100_000))}`)).toThrow(
    'line 2: nested deeper than 512 levels, which no exchange the emulator or the recorder writes is',
  );
  expect(() => parseTranscript(`${header}\n${answer(deep(512))}`)).toThrow(/^line 2: nested deeper than 512/);
  // The line itself is the first level: a body 511 deep is within the limit.
  expect(parseTranscript(`${header}\n${answer(deep(511))}`).events).toHaveLength(1);
});

test('another format version, or no header, is refused with the version this emulator reads', () => {
  expect(() => parseTranscript(header.replace('"version":1', '"version":2'))).toThrow(
    'line 1: transcript version 2 is not supported; this emulator reads version 1',
  );
  expect(() => parseTranscript('\n\n')).toThrow('line 1: the transcript is empty');
  expect(() => parseTranscript('{"t":0,"type":"reply","message":"x","from":"1","text":"hi"}')).toThrow(
    /^line 1: not a transcript header/,
  );
});
