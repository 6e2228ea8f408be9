/** One API route as a plain function of its call: what it gets once routed, authenticated and past the faults. */

import type { Environment } from '../domain/message.js';
import { type ApiMethod, type RouteOperation, allowedMethods, apiOperations } from '../domain/apiOperations.js';
import type { Account } from '../state/store.js';
import type { ApiAnswer, ApiRequest, Answering } from './apiExchange.js';

export interface RouteCall {
  readonly request: ApiRequest;
  readonly environment: Environment;
  /** The authenticated account as the state holds it now (looked up at each read: a reset may replace it while the request waits). */
  readonly account: Account;
  /** The path's `:id`, decoded; '' on a route without one. */
  readonly id: string;
  /**
   * Origin plus the environment's prefix, e.g. `http://127.0.0.1:2727/v1`, for links. Called on the call
   * (`call.apiBase()`): it is a method of one object per request, not a closure, and `this` says so to the compiler.
   */
  apiBase(this: RouteCall): string;
  /** Where documentation_url points; called on the call, as apiBase. */
  docsBase(this: RouteCall): string;
}

export interface ApiRoute {
  method: ApiMethod;
  /** Below the environment's prefix, e.g. `/messages/:message_id`. */
  path: string;
  /** The operation it serves, in the operations table (injected faults match it too). */
  operation: RouteOperation;
  serve(call: RouteCall): Answering;
}

/** A path's 405 for any method it does not serve, naming the ones it does. */
export interface MethodList {
  path: string;
  allow: readonly string[];
}

export function json(value: unknown, status = 200): ApiAnswer {
  return { status, body: JSON.stringify(value) };
}

/** The router's form of an OpenAPI path, for the API's routes and the control API's: `/messages/{message_id}` is `/messages/:message_id`. */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** A route's method, path and operation, as the operations table declares them. */
export function routeOf(operation: RouteOperation): Pick<ApiRoute, 'method' | 'path' | 'operation'> {
  const { method, path } = apiOperations[operation];
  return { method, path: routerPath(path), operation };
}

/** The 405 of the path `operation` is served at, naming every method the table serves there. */
export function methodsAt(operation: RouteOperation): MethodList {
  const { path } = apiOperations[operation];
  return { path: routerPath(path), allow: allowedMethods(path) };
}
