/** Turning catalogued errors into answers, and the per-request bases that links point at. */

import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../domain/errors.js';
import type { Environment } from '../domain/message.js';
import { parseOffset } from '../domain/time.js';
import { type ResolvedOptions, publicOrigin } from '../options.js';
import { apiPrefixes } from '../domain/environment.js';
import type { ApiAnswer } from './apiExchange.js';
import { type RequestHead, requestOrigin } from './context.js';
import { errorDocUrl } from './documentation.js';

export interface ResponseSettings {
  errorEnvelope: ResolvedOptions['errorEnvelope'];
  docsUrl: string | undefined;
  offsetMinutes: number;
  /** The origin every link uses when the publicUrl option is set. */
  publicOrigin: string | undefined;
}

export function responseSettings(options: ResolvedOptions): ResponseSettings {
  return {
    errorEnvelope: options.errorEnvelope,
    docsUrl: options.docsUrl?.replace(/\/+$/, ''),
    offsetMinutes: parseOffset(options.timeZoneOffset) ?? 0,
    publicOrigin: publicOrigin(options),
  };
}

/** Where documentation_url points: the configured docs, or this emulator's own pages. */
export function docsBase(request: RequestHead, settings: ResponseSettings): string {
  return settings.docsUrl ?? `${requestOrigin(request, settings.publicOrigin)}/_emulator/docs`;
}

export function apiBase(request: RequestHead, settings: ResponseSettings, environment: Environment): string {
  return requestOrigin(request, settings.publicOrigin) + apiPrefixes[environment];
}

export function routeNotFound(method: string, path: string): ApiError {
  return new ApiError('ROUTE_NOT_FOUND', `No endpoint at ${method} ${path}.`);
}

/** What a failure is answered as: a catalogued error as it is; anything else is a defect, logged and answered INTERNAL_SERVER_ERROR. */
export function answerableError(error: unknown, method: string, path: string): ApiError {
  if (error instanceof ApiError) return error;
  console.error('sms-emulator: unexpected error while handling', method, path, error);
  return new ApiError('INTERNAL_SERVER_ERROR');
}

/** The catalogued error body: `{message, description, documentation_url}`, wrapped in `{error}` when the errorEnvelope option says so. */
function errorBody(request: RequestHead, error: ApiError, settings: ResponseSettings): object {
  const body = {
    message: error.code,
    description: error.description,
    documentation_url: errorDocUrl(docsBase(request, settings), error.code),
  };
  return settings.errorEnvelope === 'wrapped' ? { error: body } : body;
}

/** The catalogued error answer; `status` differs from the error's only where an option says so (noMessagesStatus). */
export function errorAnswer(
  request: RequestHead,
  error: ApiError,
  settings: ResponseSettings,
  status = error.status,
): ApiAnswer {
  return { status, body: JSON.stringify(errorBody(request, error, settings)), headers: error.headers };
}

export function errorResponse(c: Context, error: ApiError, settings: ResponseSettings): Response {
  // Through c.json, so the request journal sees the error body like any other answer.
  return c.json(errorBody(c.req, error, settings), error.status as ContentfulStatusCode, { ...error.headers });
}
