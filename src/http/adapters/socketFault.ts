/** Fails a network fault's answer on a real socket: reset, hang up, cut the body, or trickle it. Both request paths use it. */

import type { ServerResponse } from 'node:http';
import type { ApiAnswer } from '../apiExchange.js';
import { resetsConnection } from '../../engine/scenario/networkFaults.js';
import type { WallTimers } from '../../state/wallTimers.js';
import { firstHalf, trickle } from '../networkAnswer.js';

/** Headers as an answer is written: JSON unless the answer says otherwise, and its length when it has a body. */
export function answerHeaders(answer: ApiAnswer, length?: number): Record<string, string | number> {
  const headers: Record<string, string | number> = { 'content-type': 'application/json' };
  if (answer.headers) for (const name in answer.headers) headers[name.toLowerCase()] = answer.headers[name] as string;
  if (length !== undefined) headers['content-length'] = length;
  return headers;
}

/** Writes (or withholds) `answer` as its `network` fault says; the html kind is an ordinary answer and never comes here. */
export function failOnSocket(
  outgoing: ServerResponse,
  method: string,
  answer: ApiAnswer & Required<Pick<ApiAnswer, 'network'>>,
  wallTimers: WallTimers,
): void {
  const socket = outgoing.socket;
  const { kind, trickleMs } = answer.network;
  if (resetsConnection[kind]) {
    // An RST: the client reads ECONNRESET, with no answer at all.
    socket?.resetAndDestroy();
    return;
  }
  if (kind === 'hang-up' || socket === null) {
    // A FIN without an answer: Node's client says "socket hang up", fetch "other side closed".
    socket?.destroy();
    return;
  }
  const full = Buffer.from(answer.body);
  const body = method === 'HEAD' ? new Uint8Array(0) : full;
  // The full length is announced, so the client knows the body it gets is short.
  outgoing.writeHead(answer.status, answerHeaders(answer, method === 'HEAD' ? undefined : full.byteLength));
  if (kind === 'truncated') {
    outgoing.write(firstHalf(body), () => socket.destroy());
    return;
  }
  const { pieces, everyMs } = trickle(body, trickleMs);
  outgoing.flushHeaders();
  // A client that leaves mid-trickle takes the next piece's timer with it: none stays armed for a closed socket.
  let cancel: (() => void) | undefined;
  outgoing.once('close', () => cancel?.());
  const next = (index: number): void => {
    if (outgoing.destroyed) return;
    // The emulator closed mid-trickle: the client gets what was written and a closed connection.
    if (wallTimers.closed) return void socket.destroy();
    if (index >= pieces.length) {
      outgoing.end();
      return;
    }
    outgoing.write(pieces[index] as Uint8Array);
    cancel = wallTimers.after(everyMs, () => next(index + 1));
  };
  next(0);
}
