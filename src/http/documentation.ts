/** The documentation URLs of an API operation and of an error code. */

import type { ErrorCode } from '../domain/errors.js';
import { type ApiOperationName, apiOperations } from '../domain/apiOperations.js';

export function operationDocUrl(docsBase: string, operation: ApiOperationName): string {
  return `${docsBase}/messages#${apiOperations[operation].anchor}`;
}

export function errorDocUrl(docsBase: string, code: ErrorCode): string {
  return `${docsBase}/errors#${code}`;
}
