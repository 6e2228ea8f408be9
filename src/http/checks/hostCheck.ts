/**
 * The Host check on the socket: every request the Node listener takes (the /v1 fast lane included) whose Host names a
 * host the emulator does not answer to is refused with HOST_NOT_ALLOWED before anything else reads it, so a page on a
 * DNS-rebinding name reaches nothing. `emulator.fetch` has no socket a browser could reach and is not checked.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { type HostRules, hostAllowed, hostName } from '../../domain/hostNames.js';
import type { NodeListener } from '../adapters/fastLane.js';
import { type ResponseSettings, errorAnswer } from '../respond.js';

/** Distinct Host values remembered; past that the memory starts over, so a stream of made-up names cannot grow it. */
const cacheLimit = 256;

/** The Host names one emulator answers to, with each Host value's verdict remembered (the fast lane pays one Map lookup). */
export class HostCheck {
  private readonly verdicts = new Map<string, boolean>();
  private rules: HostRules;

  constructor(rules: HostRules) {
    this.rules = { ...rules, listening: [...rules.listening] };
  }

  /** Adds an address the emulator listens on (each `listen` call's host). */
  listenOn(address: string): void {
    if (this.rules.listening.includes(address)) return;
    this.rules = { ...this.rules, listening: [...this.rules.listening, address] };
    this.verdicts.clear();
  }

  /** Whether a request with this Host header is answered; one without a Host (no browser sends that) is left to the HTTP server, which refuses it. */
  allows(header: string | undefined): boolean {
    if (header === undefined) return true;
    let verdict = this.verdicts.get(header);
    if (verdict === undefined) {
      verdict = hostAllowed(hostName(header), this.rules);
      if (this.verdicts.size >= cacheLimit) this.verdicts.clear();
      this.verdicts.set(header, verdict);
    }
    return verdict;
  }
}

/** The HOST_NOT_ALLOWED error for a Host header, saying how to allow it. */
export function hostNotAllowed(header: string): ApiError {
  const name = hostName(header);
  const widen =
    name === '' ? '' : `, or start it with --allowed-hosts ${quoteExcerpt(name)} (SMS_EMULATOR_ALLOWED_HOSTS)`;
  return new ApiError(
    'HOST_NOT_ALLOWED',
    `This emulator does not answer to the Host ${quoteExcerpt(header)} (a guard against DNS rebinding): call it at localhost or 127.0.0.1${widen}.`,
  );
}

/** `listener` behind the Host check; `origin` is the emulator's own origin, which the refusal's documentation link uses instead of the foreign Host. */
export function guardHost(
  listener: NodeListener,
  check: HostCheck,
  settings: ResponseSettings,
  origin: () => string,
): NodeListener {
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const host = incoming.headers.host;
    if (check.allows(host)) return listener(incoming, outgoing);
    const own = { url: `${origin()}/`, header: () => undefined };
    const answer = errorAnswer(own, hostNotAllowed(host as string), settings);
    outgoing
      .writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer.body),
      })
      .end(answer.body);
  };
}
