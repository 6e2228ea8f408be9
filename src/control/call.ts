/** How a handle call's arguments travel over HTTP: into the path, the query or the body, and back out again. */

/** Where one handle argument goes in the HTTP request. */
export type ArgSpec =
  /** A path parameter: `{name}` in the operation's path. */
  | { in: 'path'; name: string }
  /** An object whose fields become query parameters (`name` absent), or one query parameter (`name` given). */
  | { in: 'query'; name?: string }
  /** The JSON body. */
  | { in: 'body' }
  /** The body as text (YAML or JSON); an object is sent as JSON. */
  | { in: 'text' };

/** An HTTP control request, relative to `/_emulator`. */
export interface ControlRequest {
  method: string;
  /** The path with parameters filled in and encoded, such as `/accounts/pk_team`. */
  path: string;
  query: Record<string, string>;
  /** A JSON value, a text body (string), or undefined for none. */
  body: unknown;
}

/** What the remote handle needs: send one control request and answer its JSON body (undefined for none); throw on an error status. */
export type ControlTransport = (
  method: string,
  path: string,
  query: Record<string, string>,
  body: unknown,
) => Promise<unknown>;

/** Turns handle arguments into a request for `method path`. */
export function encodeCall(
  method: string,
  path: string,
  specs: readonly ArgSpec[],
  args: readonly unknown[],
): ControlRequest {
  const request: ControlRequest = { method, path, query: {}, body: undefined };
  specs.forEach((spec, index) => {
    const value = args[index];
    if (spec.in === 'path') request.path = request.path.replace(`{${spec.name}}`, encodeURIComponent(String(value)));
    else if (spec.in === 'query' && spec.name !== undefined) {
      if (value !== undefined) request.query[spec.name] = String(value);
    } else if (spec.in === 'query') {
      for (const [name, field] of Object.entries((value ?? {}) as Record<string, unknown>))
        if (field !== undefined) request.query[name] = String(field);
    } else request.body = value;
  });
  return request;
}
