/** The remote control handle: each member sends its operation over a transport (HTTP to `/_emulator` of a running emulator). */

import { type ControlTransport, encodeCall } from './call.js';
import { buildHandle } from './buildHandle.js';
import type { ControlHandle } from './handle.js';

/**
 * A control handle that drives an emulator through `transport`, which sends one request relative to `/_emulator`
 * and answers its JSON body (or throws for an error status).
 */
export function remoteHandle(transport: ControlTransport): ControlHandle<'remote'> {
  return buildHandle<'remote'>(async (op, args) => {
    const request = encodeCall(op.method, op.path, op.args, args);
    return transport(request.method, request.path, request.query, request.body);
  });
}
