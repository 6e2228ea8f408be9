/** HTTPS: a self-signed certificate made at start, or the user's own files; trusted by a client through the exposed PEM. */

import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterEach, expect, test } from 'vitest';
import { type Emulator, createEmulator } from '../../src/index.js';

const open: Emulator[] = [];
afterEach(async () => {
  for (const emulator of open.splice(0)) await emulator.close();
});

/** GET over HTTPS trusting only `ca`; resolves with status and parsed body. */
function get(url: string, ca: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { ca, headers: { authorization: `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}` } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function started(options: Parameters<typeof createEmulator>[0]) {
  const emulator = createEmulator({ clock: 'manual', ...options });
  open.push(emulator);
  return { emulator, urls: await emulator.listen({ port: 0 }) };
}

test('--tls serves HTTPS with a self-signed certificate a client can trust through emulator.tls, and requireHttps passes', async () => {
  const { emulator, urls } = await started({ tls: true, requireHttps: true });
  expect(urls.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const tls = emulator.tls!;
  expect(tls.selfSigned).toBe(true);
  expect(tls.fingerprint).toBe(new X509Certificate(tls.cert).fingerprint256);
  expect((await get(`${urls.live}/v1/messages/balance`, tls.cert)).body).toMatchObject({ balance: 1000 });
  const missing = await get(`${urls.live}/v1/messages/nope`, tls.cert);
  expect(missing.body.documentation_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/_emulator\/docs\//);
});

test('a client that does not trust the certificate is refused by TLS itself', async () => {
  const { urls } = await started({ tls: true });
  const other = await generate([{ name: 'commonName', value: 'someone else' }], { keyType: 'ec', curve: 'P-256' });
  await expect(get(`${urls.live}/v1/messages/balance`, other.cert)).rejects.toThrow(/self[- ]signed|certificate/i);
});

test('--tls-cert and --tls-key serve the given certificate', async () => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-tls-'));
  writeFileSync(join(dir, 'cert.pem'), pems.cert);
  writeFileSync(join(dir, 'key.pem'), pems.private);
  const { emulator, urls } = await started({ tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') });
  expect(emulator.tls).toMatchObject({ cert: pems.cert, selfSigned: false });
  expect((await get(`${urls.live}/v1/messages/balance`, pems.cert)).status).toBe(200);
});

test('a certificate without its key, or a file that cannot be read, stops listen with a clear message', async () => {
  await expect(createEmulator({ tlsCert: '/nonexistent/cert.pem' }).listen({ port: 0 })).rejects.toThrow(
    /--tls-cert and --tls-key together/,
  );
  await expect(
    createEmulator({ tlsCert: '/nonexistent/cert.pem', tlsKey: '/nonexistent/key.pem' }).listen({ port: 0 }),
  ).rejects.toThrow(/cannot read the TLS certificate \/nonexistent\/cert\.pem/);
});

test('without TLS the handle has no certificate and serves plain HTTP', async () => {
  const { emulator, urls } = await started({});
  expect(emulator.tls).toBeUndefined();
  expect(urls.origin).toMatch(/^http:\/\//);
});
