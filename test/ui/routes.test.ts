/** Where the web inbox lives: its files under /_emulator/ui, / redirecting there, --no-ui turning it off, the token asked by the page. */

import { afterEach, expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { uiAssetNames } from '../../src/ui/assets.js';
import { makeEmulator } from '../support/api.js';

const open: Emulator[] = [];
afterEach(async () => {
  for (const emulator of open.splice(0)) await emulator.close();
});

function get(emulator: Emulator, path: string, method = 'GET'): Promise<Response> {
  return emulator.fetch(new Request(`http://x${path}`, { method }));
}

test('the inbox page, its modules and styles are served by the emulator, with no address outside it', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const page = await get(emulator, '/_emulator/ui');
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await page.text();
  expect(html).toContain('/_emulator/ui/app.js');
  let total = html.length;
  for (const name of uiAssetNames()) {
    if (name === 'index.html') continue;
    const response = await get(emulator, `/_emulator/ui/${name}`);
    expect(response.headers.get('content-type')).toBe(
      name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
    );
    const text = await response.text();
    expect(text).not.toMatch(/https?:\/\//);
    total += text.length;
  }
  expect(total).toBeLessThan(80_000);
});

test('every module the page imports, from its entry on, is served, and the type declarations beside them are not', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const loaded = new Set<string>();
  const load = async (url: URL): Promise<void> => {
    if (loaded.has(url.pathname)) return;
    loaded.add(url.pathname);
    const response = await get(emulator, url.pathname);
    expect(response.status, url.pathname).toBe(200);
    for (const [, specifier] of (await response.text()).matchAll(/^import [^'"]*'([^']+)';$/gm))
      await load(new URL(specifier as string, url));
  };
  await load(new URL('http://x/_emulator/ui/app.js'));
  expect([...loaded].sort()).toEqual(
    [...uiAssetNames()]
      .filter((name) => name.endsWith('.js'))
      .map((name) => `/_emulator/ui/${name}`)
      .sort(),
  );
  expect(loaded.size).toBeGreaterThan(5);
  expect((await get(emulator, '/_emulator/ui/types.d.ts')).status).toBe(404);
});

test('/ redirects to the inbox while the UI is on', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const response = await get(emulator, '/');
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe('/_emulator/ui');
});

test('with ui: false the inbox routes answer ROUTE_NOT_FOUND and / does not lead there', async () => {
  const emulator = makeEmulator({ ui: false });
  open.push(emulator);
  for (const path of ['/_emulator/ui', '/_emulator/ui/app.js', '/_emulator/ui/events']) {
    const response = await get(emulator, path);
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).message).toBe('ROUTE_NOT_FOUND');
  }
  expect((await get(emulator, '/')).headers.get('location')).not.toBe('/_emulator/ui');
});

test('with a control token the page still loads (it asks for the token) while the data stays guarded', async () => {
  const emulator = makeEmulator({ controlToken: 'tok' });
  open.push(emulator);
  expect((await get(emulator, '/_emulator/ui')).status).toBe(200);
  expect((await get(emulator, '/_emulator/ui/app.js')).status).toBe(200);
  expect((await get(emulator, '/_emulator/clock')).status).toBe(401);
  expect((await get(emulator, '/_emulator/ui/events')).status).toBe(401);
});

test('other methods on the inbox routes answer 405 with Allow', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const response = await get(emulator, '/_emulator/ui/app.js', 'POST');
  expect(response.status).toBe(405);
  expect(response.headers.get('allow')).toBe('GET');
});

test('unknown files under /_emulator/ui are not found', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  for (const path of ['/_emulator/ui/../../package.json', '/_emulator/ui/index.html', '/_emulator/ui/%2e%2e/x']) {
    expect((await get(emulator, path)).status).toBe(404);
  }
});
