/** Decoding request bodies (JSON or form) into fields, with the API's JSON_* errors for bad ones. */

import { ApiError, errorCatalogue } from '../domain/errors.js';
import type { RequestFields } from '../domain/signing.js';

/** Deeper nesting than this is JSON_EXCEEDED (the limit PHP's json_decode uses by default). */
export const maxJsonDepth = 512;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function decodeBody(bytes: Uint8Array, contentType: string | undefined): RequestFields {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError('JSON_MALFORMED_UTF8');
  }
  if (contentType?.startsWith('application/x-www-form-urlencoded')) return decodeForm(text);
  if (text.trim() === '') return {};
  return decodeJson(text);
}

function decodeJson(text: string): RequestFields {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const problem = syntaxProblem(text);
    throw new ApiError(problem, `${errorCatalogue[problem].description} (${(error as Error).message})`);
  }
  // Only a body with more brackets than the limit can be nested that deep; skip the scan otherwise.
  if (text.length > maxJsonDepth * 2 && scanJson(text).depth > maxJsonDepth) {
    throw new ApiError('JSON_EXCEEDED', `Maximum stack depth exceeded: the JSON is nested deeper than ${maxJsonDepth} levels.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(
      'JSON_UNKNOWN',
      `The body is JSON ${Array.isArray(value) ? 'array' : typeof value === 'object' ? 'null' : typeof value} but must be an object of fields.`,
    );
  }
  return value as RequestFields;
}

function decodeForm(text: string): RequestFields {
  const fields: Record<string, string | string[]> = {};
  for (const [rawName, value] of new URLSearchParams(text)) {
    const isList = rawName.endsWith('[]');
    const name = isList ? rawName.slice(0, -2) : rawName;
    const existing = fields[name];
    if (existing === undefined) fields[name] = isList ? [value] : value;
    else fields[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return fields;
}

interface JsonScan {
  depth: number;
  /** A closing bracket with no matching opener (underflow or mode mismatch). */
  mismatch: boolean;
  /** A raw control character inside a string, or outside one where JSON allows none. */
  controlChar: number | undefined;
}

/** One pass over JSON text, tracking strings, so nesting and stray characters can be told apart. */
function scanJson(text: string): JsonScan {
  const stack: number[] = [];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
      else if (code < 0x20) return { depth, mismatch: false, controlChar: i };
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      stack.push(code + 2); // '{' + 2 = '}', '[' + 2 = ']'
      if (stack.length > depth) depth = stack.length;
    } else if (code === 0x7d || code === 0x5d) {
      if (stack.pop() !== code) return { depth, mismatch: true, controlChar: undefined };
    } else if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) {
      return { depth, mismatch: false, controlChar: i };
    }
  }
  return { depth, mismatch: false, controlChar: undefined };
}

function syntaxProblem(text: string): 'JSON_ERROR_CTRL_CHAR' | 'JSON_MALFORMED' | 'JSON_INVALID_SYNTAX' | 'JSON_EXCEEDED' {
  const scan = scanJson(text);
  if (scan.controlChar !== undefined) return 'JSON_ERROR_CTRL_CHAR';
  if (scan.mismatch) return 'JSON_MALFORMED';
  if (scan.depth > maxJsonDepth) return 'JSON_EXCEEDED';
  return 'JSON_INVALID_SYNTAX';
}
