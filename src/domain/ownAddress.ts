/**
 * Whether an address is this emulator itself: the rule that keeps it from posting a webhook (or a receiver check) into
 * its own routes, where one redelivery fed itself (issue 40). Pure: the facts are gathered by the HTTP layer.
 */

import { isLoopback, isWildcard } from './hostNames.js';

/** Where this emulator can be reached; empty lists before it listens. */
export interface OwnAddresses {
  /** The ports it listens on. */
  readonly ports: readonly number[];
  /**
   * Its names and addresses besides the loopback ones, lowercase and without brackets: the machine's name, the address it
   * listens on, the `allowedHosts` names, and every interface's address when it listens on all of them.
   */
  readonly names: readonly string[];
  /** The `publicUrl` option's origin: whatever is behind it is the emulator, on any port. */
  readonly origins: readonly string[];
}

/** A host as the rule compares it (and `names` holds it): lowercase, no IPv6 brackets, no trailing dot (`localhost.` is `localhost`). */
export function ownName(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** An address any port of this machine answers on: a loopback name, a name under `.localhost`, or the any-address. */
function thisMachine(host: string): boolean {
  return isLoopback(host) || host.endsWith('.localhost') || isWildcard(host) || host === '::ffff:0:0';
}

/**
 * Whether `host:port` reaches this emulator: one of its ports under a loopback name (any 127.x address, `localhost`,
 * `::1`, the IPv4-mapped forms, the any-address `0.0.0.0` or `::`), under one of its own names, or, for an address a
 * socket connected to, under the connection's own local address (the peer is this machine). Another port is another
 * program: an app on `127.0.0.1:4000` is fine.
 */
export function isOwnAddress(host: string, port: number, own: OwnAddresses, localAddress?: string): boolean {
  if (!own.ports.includes(port)) return false;
  const name = ownName(host);
  return (
    thisMachine(name) || own.names.includes(name) || (localAddress !== undefined && ownName(localAddress) === name)
  );
}

/** The port a URL reaches: its own, else its scheme's. */
function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Whether `target` reaches the `publicUrl` origin `mine`: the same port under the same host (case and a trailing dot
 * aside), or under any name of this machine when the origin's host is one (`--public-url https://localhost:8443`, a
 * local TLS terminator: `https://127.0.0.1:8443` is the same program, on a port the emulator does not listen on).
 */
function reachesOrigin(target: URL, mine: string): boolean {
  const origin = new URL(mine);
  if (portOf(origin) !== portOf(target)) return false;
  const [theirs, ours] = [ownName(target.hostname), ownName(origin.hostname)];
  return theirs === ours || (thisMachine(theirs) && thisMachine(ours));
}

/** Whether a webhook URL names this emulator: by its `publicUrl` origin, or by a host and port `isOwnAddress` takes. */
export function isOwnUrl(url: string, own: OwnAddresses): boolean {
  // Before it listens, without publicUrl, nothing is the emulator: no URL is parsed (a world per test sets one).
  if (own.ports.length === 0 && own.origins.length === 0) return false;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  return own.origins.some((mine) => reachesOrigin(target, mine)) || isOwnAddress(target.hostname, portOf(target), own);
}

/** The text a refused post or setting gives: what it named and why it is not posted. */
export function ownAddressReason(where: string): string {
  return `${where} is this emulator itself: a post there would reach its own routes and could feed itself (a redelivery posted to its own redeliver route redelivers again)`;
}
