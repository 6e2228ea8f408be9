/** The OpenAPI 3.1 document of the API (/v1, as the emulator implements it) and of the control API (from the operations table). */

import type { z } from 'zod';
import { type ErrorDefinition, errorCatalogue } from '../domain/errors.js';
import type { ControlRoute } from './operation.js';
import { isRoute, operationList } from './operationList.js';
import { type RouteOperation, apiOperations, routeOperations } from '../domain/apiOperations.js';
import { apiPrefixes, environmentPaths } from '../domain/environment.js';
import { type MessageType, legStatuses, messageTypes } from '../domain/message.js';
import { defaultListLimit, maxListLimit } from '../domain/list.js';
import { defaultOffsetWords, scheduleFormat, scheduleWindowWords } from '../domain/scheduleWindow.js';
import { type Schema, answerSchemas, fromZod } from './answerSchemas.js';

const codes = Object.entries(errorCatalogue) as [string, ErrorDefinition][];
const isControlCode = (code: string): boolean => code.startsWith('CONTROL_');

/** One response per status, listing every code answered with it; emulator-only codes are marked. */
function errorResponses(control: boolean): Record<string, Schema> {
  const byStatus = new Map<number, string[]>();
  for (const [code, definition] of codes) {
    if (
      isControlCode(code) !== control &&
      !(control && code === 'PAYLOAD_TOO_LARGE') &&
      !(control && code === 'INVALID_HTTP_REQUEST_METHOD')
    )
      continue;
    const line = `\`${code}\`${definition.published ? '' : ' (emulator only)'}: ${definition.description}`;
    byStatus.set(definition.status, [...(byStatus.get(definition.status) ?? []), line]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, lines]) => [
      String(status),
      {
        description: lines.join('\n\n'),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
}

const json = (schema: Schema) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const messageSchema: Schema = {
  type: 'object',
  required: ['id', 'type', 'recipient', 'message', 'status', 'credit', 'creation_date'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: [...messageTypes] },
    recipient: { type: 'array', items: { type: 'string' } },
    message: { type: 'string' },
    client_reference: { type: ['string', 'null'] },
    schedule: { type: ['string', 'null'] },
    status: { type: 'string' },
    credit: { type: 'integer' },
    creation_date: { type: 'string' },
    delivery_date: { type: ['string', 'null'] },
    _links: { type: 'object' },
    documentation_url: { type: 'string' },
  },
};

const sendFields: Schema = {
  type: 'object',
  properties: {
    recipient: { type: 'array', items: { type: 'string', examples: ['27831234567'] } },
    message: { type: 'string' },
    client_reference: { type: 'string' },
    schedule: { type: 'string', description: `${scheduleFormat}; ${defaultOffsetWords}; ${scheduleWindowWords}.` },
  },
};

function apiPaths(): Record<string, Schema> {
  const errors = errorResponses(false);
  const basic = [{ basicAuth: [] }];
  const signed = [{ basicAuth: [], signature: [] }];
  const id = { name: 'message_id', in: 'path', required: true, schema: { type: 'string' } };
  const body = {
    required: true,
    content: { ...json(sendFields), 'application/x-www-form-urlencoded': { schema: sendFields } },
  };
  const query = (name: string, schema: Schema) => ({ name, in: 'query', required: false, schema });
  // Each operation's summary, security, parameters and answers; its method, path and operationId come from the table.
  const described: Record<RouteOperation, Schema> = {
    balance: {
      summary: 'Read the credit balance (the same under /sandbox/v1).',
      security: basic,
      responses: {
        '200': {
          description: 'The balance.',
          content: json({ type: 'object', properties: { balance: { type: 'integer' } } }),
        },
        ...errors,
      },
    },
    send: {
      summary: 'Send or schedule a message; the Signature header is required.',
      security: signed,
      requestBody: body,
      responses: { '201': { description: 'The message.', content: json(ref('Message')) }, ...errors },
    },
    list: {
      summary: 'List messages, newest first; NO_SMS_MESSAGES when empty.',
      security: basic,
      parameters: [
        query('recipient', { type: 'string' }),
        query('status', { type: 'string' }),
        query('search', { type: 'string' }),
        query('page', { type: 'integer', minimum: 1 }),
        query('limit', { type: 'integer', minimum: 1, maximum: 100 }),
      ],
      responses: {
        '200': {
          description: 'One page of messages.',
          content: json({
            type: 'object',
            properties: {
              list: { type: 'array', items: ref('Message') },
              page: { type: 'integer' },
              limit: { type: 'integer' },
              total_pages: { type: 'integer' },
              total_items: { type: 'integer' },
            },
          }),
        },
        ...errors,
      },
    },
    get: {
      summary: 'Read one message (or reply).',
      security: basic,
      parameters: [id],
      responses: { '200': { description: 'The message.', content: json(ref('Message')) }, ...errors },
    },
    edit: {
      summary: 'Edit a scheduled message; a Signature header is checked when present.',
      security: [...basic, ...signed],
      parameters: [id],
      requestBody: body,
      responses: { '200': { description: 'The message.', content: json(ref('Message')) }, ...errors },
    },
    delete: {
      summary: 'Delete a scheduled message.',
      security: basic,
      parameters: [id],
      responses: {
        '200': {
          description: 'Deleted.',
          content: json({ type: 'object', properties: { status: { const: 'successful' } } }),
        },
        ...errors,
      },
    },
  };
  const paths: Record<string, Schema> = {};
  for (const name of routeOperations) {
    const { method, path, operationId } = apiOperations[name];
    (paths[apiPrefixes.live + path] ??= {})[method.toLowerCase()] = { operationId, ...described[name] };
  }
  return paths;
}

/** JSON Schema of a zod input, without the `$schema` line. */
function inputSchema(schema: z.ZodType | undefined): Schema {
  return schema === undefined ? {} : fromZod(schema, 'input');
}

const pageParameters = [
  { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: maxListLimit, default: defaultListLimit },
  },
];

function controlOperation(operationId: string, op: ControlRoute): Schema {
  const input = inputSchema(op.input);
  const parameters: Schema[] = [];
  let requestBody: Schema | undefined;
  const isList = op.pages === true;
  for (const spec of op.args) {
    if (spec.in === 'path')
      parameters.push({ name: spec.name, in: 'path', required: true, schema: { type: 'string' } });
    else if (spec.in === 'query' && spec.name !== undefined)
      parameters.push({ name: spec.name, in: 'query', required: false, schema: { type: 'string' } });
    else if (spec.in === 'query') {
      for (const [name, schema] of Object.entries((input.properties ?? {}) as Record<string, Schema>))
        parameters.push({ name, in: 'query', required: false, schema });
      if (isList) parameters.push(...pageParameters);
    } else if (spec.in === 'text') {
      requestBody = {
        required: true,
        content: {
          'application/yaml': { schema: { type: 'string' } },
          'application/json': { schema: { type: 'object' } },
        },
      };
    } else requestBody = { required: false, content: json(op.input ? input : { type: 'object' }) };
  }
  const status = String(op.status ?? 200);
  const shape = op.answer === undefined ? {} : ref(op.answer);
  const answer = isList
    ? json({
        type: 'object',
        required: ['items', 'total', 'page', 'limit'],
        properties: {
          items: { type: 'array', items: shape },
          total: { type: 'integer' },
          page: { type: 'integer' },
          limit: { type: 'integer' },
        },
        additionalProperties: false,
      })
    : json(shape);
  return {
    operationId,
    summary: op.summary,
    ...(op.settles ? { description: 'Answers after the webhooks it caused were tried.' } : {}),
    security: op.open ? [] : [{}, { controlToken: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [status]: status === '204' ? { description: 'Done, no body.' } : { description: 'Success.', content: answer },
      ...errorResponses(true),
    },
  };
}

/**
 * A webhook's body: the message as the API shows it (renderMessage, the one rendering the dispatcher posts), without
 * `documentation_url`, and nothing else; a delivery notification narrows it to one recipient and that leg's status.
 */
function notificationSchema(type: MessageType, description: string): Schema {
  const { documentation_url: _notPosted, ...properties } = messageSchema.properties as Record<string, Schema>;
  return {
    ...messageSchema,
    description,
    properties: {
      ...properties,
      type: { type: 'string', const: type },
      ...(type === 'sms'
        ? {
            recipient: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1 },
            status: { type: 'string', enum: [...legStatuses] },
          }
        : { recipient: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1 } }),
    },
    required: [...(messageSchema.required as string[]), '_links', 'client_reference', 'schedule', 'delivery_date'],
    additionalProperties: false,
  };
}

const retryRule =
  "Any answer but 200 (or none within the webhook timeout) is re-sent at once, then re-attempted 3 times at most (the spec's rule; webhookRetries, webhookBackoff and webhookTimeout tune it). Signed with Webhook-Signature when the account has a webhookSigningSecret (a world's own, drawn when it names none; any other account's is the emulator's webhookSigningSecret option).";

/** OpenAPI 3.1 `webhooks`: what the emulator posts to an account's webhook URL, so a receiver can be generated and checked. */
function webhookOperations(): Schema {
  const post = (operationId: string, summary: string, schema: string, example?: Schema) => ({
    post: {
      operationId,
      summary,
      description: retryRule,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(schema), ...(example ? { example } : {}) } },
      },
      responses: { '200': { description: 'Received: nothing is re-sent.' } },
    },
  });
  return {
    deliveryNotification: post(
      'webhooks.deliveryNotification',
      "A leg of a message changed status (submitted, then its outcome; the notifyOn option lists which): the message narrowed to that recipient, with the leg's status.",
      'DeliveryNotification',
    ),
    reply: post(
      'webhooks.reply',
      'An inbound reply to a message the account sent: `message` is the reply text, `client_reference` the one of the message it answers.',
      'ReplyNotification',
    ),
    stopReply: post(
      'webhooks.stopReply',
      'A reply whose text is an opt-out keyword (STOP by default; optOutKeywords): the same payload as any reply, and from then on every leg to that number ends blist until it opts in again (START).',
      'ReplyNotification',
      { type: 'sms-reply', message: 'STOP' },
    ),
  };
}

/**
 * Where a client sends the API: the live base address, or the sandbox's (the same /v1 operations under /sandbox), both
 * relative to the document's own origin so they hold on any port and behind a proxy.
 */
const servers = [
  { url: '/', description: 'Live: the API under /v1 (and the control API under /_emulator).' },
  {
    url: environmentPaths.sandbox,
    description: 'Sandbox: the same API under /sandbox/v1, with its own balances, messages and webhooks.',
  },
];
/** The control API exists once per emulator, at the origin: a client pointed at the sandbox server still calls it there. */
const originOnly = [
  { url: '/', description: 'The control API is served at the origin only, for live and sandbox alike.' },
];

function controlPaths(): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const [operationId, op] of operationList()) {
    if (!isRoute(op)) continue;
    const path = `/_emulator${op.path}`;
    paths[path] = { servers: originOnly, ...paths[path], [op.method.toLowerCase()]: controlOperation(operationId, op) };
  }
  return paths;
}

export function openApiDocument(): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'sms-emulator',
      version: 'v1',
      description:
        'The SMS messaging REST API as sms-emulator implements it (the second server, /sandbox, serves the same operations under /sandbox/v1), and the emulator-only control API under /_emulator. Error codes marked "emulator only" are not in the published catalogue.',
    },
    servers,
    paths: { ...apiPaths(), ...controlPaths() },
    webhooks: webhookOperations(),
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'The API key as username, a blank password.' },
        signature: {
          type: 'apiKey',
          in: 'header',
          name: 'Signature',
          description:
            'HMAC-SHA256 (lowercase hex) of the body fields sorted by name, blanks dropped, name[]=value for arrays, RFC 3986 encoded, joined with &.',
        },
        controlToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'Only when the emulator runs with --control-token.',
        },
      },
      schemas: {
        ...answerSchemas(),
        Message: messageSchema,
        DeliveryNotification: notificationSchema(
          'sms',
          "The body of a delivery notification: the message narrowed to one recipient, with that leg's status.",
        ),
        ReplyNotification: notificationSchema(
          'sms-reply',
          'The body of a reply notification (a STOP reply too): `recipient` is the number that replied.',
        ),
        Error: {
          type: 'object',
          required: ['message', 'description', 'documentation_url'],
          properties: {
            message: { type: 'string', enum: codes.map(([code]) => code), description: 'The error code.' },
            description: { type: 'string' },
            documentation_url: { type: 'string' },
          },
          'x-emulator-only-codes': codes.filter(([, definition]) => !definition.published).map(([code]) => code),
        },
      },
    },
  };
}
