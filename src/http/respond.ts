/** Turning catalogued errors into responses, and the per-request bases that links point at. */

import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../domain/errors.js';
import type { Environment } from '../domain/message.js';
import { parseOffset } from '../domain/time.js';
import { type ResolvedOptions, publicOrigin } from '../options.js';
import { environmentPrefix } from '../domain/links.js';
import { requestOrigin } from './context.js';
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
    docsUrl: options.docsUrl,
    offsetMinutes: parseOffset(options.timeZoneOffset) ?? 0,
    publicOrigin: publicOrigin(options),
  };
}

/** Where documentation_url points: the configured docs, or this emulator's own pages. */
export function docsBase(c: Context, settings: ResponseSettings): string {
  return settings.docsUrl?.replace(/\/+$/, '') ?? `${requestOrigin(c, settings.publicOrigin)}/_emulator/docs`;
}

export function apiBase(c: Context, settings: ResponseSettings, environment: Environment): string {
  return requestOrigin(c, settings.publicOrigin) + environmentPrefix(environment);
}

export function errorResponse(c: Context, error: ApiError, settings: ResponseSettings, status = error.status): Response {
  const body = {
    message: error.code,
    description: error.description,
    documentation_url: errorDocUrl(docsBase(c, settings), error.code),
  };
  // Through c.json, so the request journal sees the error body like any other answer.
  return c.json(settings.errorEnvelope === 'wrapped' ? { error: body } : body, status as ContentfulStatusCode, { ...error.headers });
}
