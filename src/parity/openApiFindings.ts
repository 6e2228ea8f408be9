/**
 * Checks a transcript against an OpenAPI document (3.0 or 3.1: the provider's, or the emulator's own): each recorded
 * answer against its operation's declared answer for that status, each webhook against the document's webhooks. A
 * drift the emulator shares with the provider (both left the spec) is found this way, which a replay cannot find.
 */

import type { ErrorObject, ValidateFunction } from 'ajv';
import type { RawFinding } from './groupFindings.js';
import type { AnswerLine, RequestLine, Transcript } from './transcript.js';

type Schema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>;
  webhooks?: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
}

/** The document checked for what this check reads; anything else is the document's own business. */
export function openApiDocumentOf(value: unknown): OpenApiDocument {
  const document = value as Partial<OpenApiDocument> | null;
  if (typeof document !== 'object' || document === null || typeof document.openapi !== 'string')
    throw new Error('the OpenAPI document has no "openapi" version field: it is not an OpenAPI document');
  return document as OpenApiDocument;
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema's type list, so one validator reads both versions. */
function withNullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withNullable);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, inner]) => [key, withNullable(inner)] as const);
  const schema = Object.fromEntries(entries) as Schema;
  if (schema.nullable === true && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

const pointer = (...steps: string[]): string =>
  steps.map((step) => step.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** `answer.body.list[0].credit` from `/list/0/credit`. */
function fieldOf(prefix: string, instancePath: string, error: ErrorObject): string {
  const steps = instancePath.split('/').slice(1);
  const extra = (error.params as { additionalProperty?: string; missingProperty?: string }) ?? {};
  const name = extra.additionalProperty ?? extra.missingProperty;
  if (name !== undefined) steps.push(name);
  return steps.reduce(
    (field, step) =>
      /^\d+$/.test(step) ? `${field}[${step}]` : `${field}.${step.replace(/~1/g, '/').replace(/~0/g, '~')}`,
    prefix,
  );
}

function describe(error: ErrorObject): string {
  const params = error.params as { allowedValues?: unknown[]; additionalProperty?: string };
  if (params.allowedValues !== undefined) return `${error.message}: ${params.allowedValues.join(', ')}`;
  if (params.additionalProperty !== undefined) return 'is not declared (additionalProperties: false)';
  return error.message ?? error.keyword;
}

/** Every violation of `document` in the transcript's recorded answers and webhooks, as findings on their lines. */
export async function openApiFindings(transcript: Transcript, value: unknown): Promise<RawFinding[]> {
  const document = openApiDocumentOf(value);
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  try {
    ajv.addSchema({ ...(withNullable(document) as Schema), $id: 'openapi.json' });
  } catch (error) {
    throw new Error(`the OpenAPI document is not usable: ${(error as Error).message}`, { cause: error });
  }
  const compiled = new Map<string, ValidateFunction | undefined>();
  const validator = (ref: string): ValidateFunction | undefined => {
    if (!compiled.has(ref)) {
      try {
        compiled.set(ref, ajv.compile({ $ref: `openapi.json#/${ref}` }));
      } catch (error) {
        throw new Error(`the OpenAPI document's ${ref} is not usable: ${(error as Error).message}`, { cause: error });
      }
    }
    return compiled.get(ref);
  };
  const bases = (document.servers ?? [{ url: '/' }]).map((server) =>
    new URL(server.url, 'http://x').pathname.replace(/\/$/, ''),
  );
  const templates = Object.keys(document.paths ?? {}).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}$`),
  }));
  const operationOf = (request: RequestLine): { template: string; method: string } | undefined => {
    const method = request.method.toLowerCase();
    for (const base of ['', ...bases]) {
      if (!request.path.startsWith(`${base}/`)) continue;
      const rest = request.path.slice(base.length);
      const found = templates.find(
        ({ template, pattern }) => pattern.test(rest) && document.paths?.[template]?.[method],
      );
      if (found !== undefined) return { template: found.template, method };
    }
    return undefined;
  };
  const findings: RawFinding[] = [];
  const violations = (
    validate: ValidateFunction,
    body: unknown,
    line: number,
    prefix: string,
    what: string,
    path?: string,
  ) => {
    if (validate(body)) return;
    for (const error of validate.errors ?? [])
      findings.push({
        kind: 'schema-violation',
        line,
        field: fieldOf(prefix, error.instancePath, error),
        message: `${what}: ${describe(error)} (the document's ${error.schemaPath})`,
        ...(path === undefined ? {} : { path }),
      });
  };
  const requests = new Map<string, RequestLine>();
  const webhookRefs = Object.entries(document.webhooks ?? {}).flatMap(([name, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation.requestBody?.content?.['application/json'] === undefined
        ? []
        : [pointer('webhooks', name, method, 'requestBody', 'content', 'application/json', 'schema')],
    ),
  );
  transcript.events.forEach((event, index) => {
    const line = transcript.lines[index] as number;
    if (event.type === 'request') requests.set(event.id, event);
    if (event.type === 'answer') {
      const request = requests.get(event.request);
      if (request === undefined || event.status === 0) return;
      const what = `${request.method} ${request.path} answered ${event.status}`;
      const operation = operationOf(request);
      // An operation the document does not have may be refused (404, 405); answered as a success it is undeclared.
      if (operation === undefined && event.status < 400) {
        findings.push({
          kind: 'schema-violation',
          line,
          field: 'answer',
          message: `${what}: the document has no ${request.method} operation for this path`,
          path: request.path,
        });
        return;
      }
      if (operation !== undefined) checkAnswer(event, request, operation, line, what);
    }
    if (event.type === 'webhook' && webhookRefs.length > 0) {
      const checks = webhookRefs.flatMap((ref) => {
        const validate = validator(ref);
        return validate === undefined ? [] : [validate];
      });
      const scored = checks.map((validate) => ({
        validate,
        count: validate(event.payload) ? 0 : (validate.errors?.length ?? 1),
      }));
      // None fits: the nearest (fewest violations) is the one the provider meant to post.
      const nearest = scored.sort((a, b) => a.count - b.count)[0];
      if (nearest !== undefined && nearest.count > 0)
        violations(nearest.validate, event.payload, line, 'webhook.payload', 'a webhook');
    }
  });
  return findings;

  function checkAnswer(
    event: AnswerLine,
    request: RequestLine,
    operation: { template: string; method: string },
    line: number,
    what: string,
  ): void {
    const responses = document.paths?.[operation.template]?.[operation.method]?.responses ?? {};
    const status = String(event.status);
    const declared = [status, `${status[0]}XX`, `${status[0]}xx`, 'default'].find(
      (key) => responses[key] !== undefined,
    );
    if (declared === undefined) {
      findings.push({
        kind: 'schema-violation',
        line,
        field: 'answer.status',
        message: `${what}: the document declares no ${status} answer for ${operation.method.toUpperCase()} ${operation.template}`,
        path: request.path,
      });
      return;
    }
    if (event.body === undefined || responses[declared]?.content?.['application/json'] === undefined) return;
    const validate = validator(
      pointer(
        'paths',
        operation.template,
        operation.method,
        'responses',
        declared,
        'content',
        'application/json',
        'schema',
      ),
    );
    if (validate !== undefined) violations(validate, event.body, line, 'answer.body', what, request.path);
  }
}
