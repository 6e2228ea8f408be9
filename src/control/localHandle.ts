/** The in-process control handle: each member runs its operation's handler directly, without HTTP. */

import { buildHandle } from './buildHandle.js';
import type { ControlHandle } from './handle.js';
import type { OperationDeps } from './operation.js';
import { runOperation } from './runOperation.js';

export function localHandle(deps: OperationDeps): ControlHandle<'local'> {
  return buildHandle<'local'>((op, args) => runOperation(op, deps, args));
}
