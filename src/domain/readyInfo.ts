/** What the CLI tells tools once it listens, as the ready file and the JSON banner carry it: written by cli/, read by testing/ and cli/ alike, and published to the language kits as a JSON Schema (test-vectors/kit-contract.json). */

import { z } from 'zod';
import { clockModes } from './clockRange.js';

/** With TLS: the certificate a client must trust. */
const readyTlsSchema = z.strictObject({
  fingerprint: z.string().describe('SHA-256 fingerprint, as the banner prints it.'),
  selfSigned: z.boolean().describe('True for the certificate made at start (`--tls`), false for `--tls-cert`.'),
  cert: z.string().describe('The certificate (PEM), e.g. to write out for `NODE_EXTRA_CA_CERTS` or `curl --cacert`.'),
  certFile: z.string().optional().describe('With `--tls-cert`: the PEM file it was read from.'),
});
export type ReadyTls = z.infer<typeof readyTlsSchema>;

/** The ready file's content (and the JSON banner's): everything a launcher needs to reach the emulator. */
export const readyInfoSchema = z.strictObject({
  name: z.literal('sms-emulator'),
  version: z.string().describe("The package's version."),
  pid: z.number().int().describe("The emulator's own process id (signal this one to stop it)."),
  origin: z.string().describe('`http://127.0.0.1:PORT`; the control API is at `<origin>/_emulator`.'),
  live: z.string().describe('Live base URL (the API at `<live>/v1`).'),
  sandbox: z.string().describe('Sandbox base URL (the API at `<sandbox>/v1`).'),
  control: z.string().describe('The control API: `<origin>/_emulator`.'),
  docs: z.string().describe('The documentation pages: `<origin>/_emulator/docs/`.'),
  port: z.number().int(),
  apiKey: z.string(),
  signingSecret: z.string(),
  balance: z.number().int(),
  batchLimit: z.number().int().describe('Most recipients per request (BATCH_LIMIT_EXCEEDED above it).'),
  batchLimitNote: z.string().describe("Why that limit: the default or the option, and the spec's two numbers."),
  clock: z.enum(clockModes),
  speed: z.number(),
  seed: z.string(),
  controlTokenRequired: z
    .boolean()
    .describe('Whether the control API needs `Authorization: Bearer <token>` (the token itself is never written).'),
  publicUrl: z
    .string()
    .optional()
    .describe(
      'With `publicUrl`: the origin every link (`_links`, webhook payloads, docs) uses; `origin` stays the address listened on.',
    ),
  tls: readyTlsSchema.optional(),
});
export type ReadyInfo = z.infer<typeof readyInfoSchema>;
