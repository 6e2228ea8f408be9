/** Which Host names the emulator answers to: the rule of the Host check (a guard against DNS rebinding), in one place. */

import { z } from 'zod';

/** The `allowedHosts` entry that turns the Host check off. */
export const anyHost = 'all';

/** A name, an IPv4 address or a bracketed IPv6 address, without scheme, port or path; or `all`. */
const hostNamePattern = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])$/i;

export const allowedHostSchema = z
  .string()
  .regex(hostNamePattern, 'expected a host name such as sms.example.test (no scheme, port or path), or all')
  .transform((name) => name.toLowerCase());

/** Whether `host` is the any-address a server listens on (every interface), which a browser cannot open: shown as localhost. */
export const isWildcardHost = (host: string): boolean => host === '0.0.0.0' || host === '::';

/**
 * Whether `host` (a name or address, brackets optional) is only reachable from this machine: localhost, 127.0.0.0/8,
 * ::1, or 127.0.0.0/8 mapped into IPv6 (`::ffff:127.0.0.2`, or `::ffff:7f00:2` as a URL writes it).
 */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' ||
    bare === '::1' ||
    /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/.test(bare) ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(bare)
  );
}

/** Whether `address` is a wildcard listening address (every interface). */
export const isWildcard = (address: string): boolean => ['0.0.0.0', '::', '[::]'].includes(address);

/** An IPv4 address or a bracketed IPv6 address: a Host no DNS answer can rebind. */
const ipLiteral = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/;

/** The name part of a Host header, lowercased: `[::1]:2727` → `[::1]`, `Localhost:80` → `localhost`. */
export function hostName(header: string): string {
  const lower = header.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.indexOf(':');
  return colon < 0 ? lower : lower.slice(0, colon);
}

/** Where the emulator is reachable, which decides the Host names it answers to. */
export interface HostRules {
  /** The allowedHosts option: exact names, or `all`. */
  allowed: readonly string[];
  /** The addresses it listens on (the host option, each listen call's host). */
  listening: readonly string[];
  /** The host of the publicUrl option, if set. */
  publicHost: string | undefined;
}

/**
 * Whether a request whose Host names `name` (as `hostName` gives it) is answered: loopback names, names under
 * `.localhost` (browsers resolve those to this machine themselves), the listening addresses, publicUrl's host and the
 * allowedHosts names, matched exactly. Listening on every interface also admits any IP address, which no DNS answer can
 * rebind; other names need allowedHosts.
 */
export function hostAllowed(name: string, rules: HostRules): boolean {
  if (rules.allowed.includes(anyHost)) return true;
  if (isLoopback(name) || name.endsWith('.localhost')) return true;
  if (rules.allowed.includes(name) || name === rules.publicHost) return true;
  for (const address of rules.listening) {
    const listened = address.includes(':') && !address.startsWith('[') ? `[${address}]` : address.toLowerCase();
    if (name === listened) return true;
    if (isWildcard(address) && ipLiteral.test(name)) return true;
  }
  return false;
}
