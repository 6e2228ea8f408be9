/** The certificate and key the server uses for HTTPS: the user's own files, or a self-signed pair made at start. */

import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isWildcardHost } from '../domain/hostNames.js';

export interface TlsMaterial {
  /** The certificate (PEM); give it to a test client as its trusted CA. */
  cert: string;
  key: string;
  /** SHA-256 fingerprint of the certificate, colon-separated hex. */
  fingerprint: string;
  /** True when the emulator generated the certificate. */
  selfSigned: boolean;
}

export interface TlsSettings {
  tls: boolean;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
}

/** Whether the settings ask for HTTPS at all. */
export function wantsTls(settings: TlsSettings): boolean {
  return settings.tls || settings.tlsCert !== undefined || settings.tlsKey !== undefined;
}

/** Reads or makes the certificate for `host`; undefined when HTTPS is off. Throws a clear error for a missing half or an unreadable file. */
export async function tlsMaterial(settings: TlsSettings, host: string): Promise<TlsMaterial | undefined> {
  if (!wantsTls(settings)) return undefined;
  const { tlsCert, tlsKey } = settings;
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    throw new Error(
      'sms-emulator: give --tls-cert and --tls-key together (the certificate and its private key, PEM files).',
    );
  }
  if (tlsCert !== undefined && tlsKey !== undefined) {
    const cert = readPem(tlsCert, 'certificate');
    let fingerprint: string;
    try {
      fingerprint = new X509Certificate(cert).fingerprint256;
    } catch (error) {
      throw new Error(`sms-emulator: ${tlsCert} is not a PEM certificate: ${(error as Error).message}.`, {
        cause: error,
      });
    }
    return { cert, key: readPem(tlsKey, 'private key'), fingerprint, selfSigned: false };
  }
  return selfSigned(host);
}

function readPem(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`sms-emulator: cannot read the TLS ${what} ${path}: ${(error as Error).message}.`, {
      cause: error,
    });
  }
}

/**
 * A self-signed certificate for localhost, 127.0.0.1, ::1 and `host`, valid for a year. `selfsigned`
 * (pure JavaScript over WebCrypto) is imported only here, so starting without TLS never loads it;
 * an EC P-256 key is made in tens of milliseconds where RSA 2048 takes about half a second.
 */
async function selfSigned(host: string): Promise<TlsMaterial> {
  const { generate } = await import('selfsigned');
  const names = new Set([
    'localhost',
    '127.0.0.1',
    '::1',
    isWildcardHost(host) ? 'localhost' : host.replace(/^\[|\]$/g, ''),
  ]);
  const altNames = [...names].map((name) =>
    isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name },
  );
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: 'sms-emulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    notBeforeDate: new Date(now - 86_400_000),
    notAfterDate: new Date(now + 365 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return {
    cert: pems.cert,
    key: pems.private,
    fingerprint: new X509Certificate(pems.cert).fingerprint256,
    selfSigned: true,
  };
}
