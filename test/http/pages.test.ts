/** The pages a user opens: landing page, docs (no redirect loop), OpenAPI, health; `/` leads to them. */

import { expect, test } from 'vitest';
import { referencePage } from '../../src/http/routes/docs.js';
import { escapeHtml } from '../../src/ui/escapeHtml.js';
import { makeEmulator, origin } from '../support/api.js';
import { docsPage, docsPages } from '../support/docs.js';

test('the landing page, docs pages, OpenAPI document and health all answer 200', async () => {
  const emulator = makeEmulator();
  for (const path of [
    '/_emulator',
    '/_emulator/',
    '/_emulator/docs/',
    '/_emulator/docs/messages',
    '/_emulator/docs/errors',
    '/_emulator/openapi.json',
    '/_emulator/health',
  ]) {
    const response = await emulator.fetch(new Request(`${origin}${path}`, { redirect: 'manual' }));
    expect(response.status, path).toBe(200);
  }
  const landing = await (await emulator.fetch(new Request(`${origin}/_emulator`))).text();
  for (const link of ['/_emulator/docs/', '/_emulator/openapi.json', '/_emulator/health', '/_emulator/requests'])
    expect(landing).toContain(link);
});

test('/ redirects to the landing page when the web inbox is off', async () => {
  const response = await makeEmulator({ ui: false }).fetch(new Request(`${origin}/`, { redirect: 'manual' }));
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe('/_emulator');
});

test('the docs index links every docs/ page, and each is served escaped under a CSP that allows no script', async () => {
  const emulator = makeEmulator();
  const index = await emulator.fetch(new Request(`${origin}/_emulator/docs/`));
  expect(index.headers.get('content-security-policy')).toContain("default-src 'none'");
  const html = await index.text();
  for (const name of docsPages()) {
    expect(html, `the docs index does not link ${name}`).toContain(`href="${name}"`);
    const response = await emulator.fetch(new Request(`${origin}/_emulator/docs/${name}`));
    expect(response.status, name).toBe(200);
    expect(response.headers.get('content-security-policy'), name).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    const body = await response.text();
    expect(body, name).not.toMatch(/<script|<a href="javascript/i);
    // Markdown's own text is shown, escaped: a table row's pipes and a code block's markup are all there as text.
    expect(body, name).toContain(
      escapeHtml(
        docsPage(name)
          .split('\n')
          .find((line) => line.includes('`') && !line.includes('](')) ?? '',
      ),
    );
  }
});

test('a served docs page shows its links as links: pages beside it, anchors and web addresses, nothing else', async () => {
  const emulator = makeEmulator();
  const html = await (await emulator.fetch(new Request(`${origin}/_emulator/docs/index.md`))).text();
  expect(html).toContain('<a href="options.md">options.md</a>');
  expect(html).not.toMatch(/\[[^\]]+\]\(options\.md\)/);
  const page = referencePage(
    't',
    '[a](errors.md#codes) [b](https://example.test/x?a=1&b=2) [c](#here) [d](javascript:alert(1)) [e](../README.md)',
  );
  expect(page).toContain('<a href="errors.md#codes">a</a>');
  expect(page).toContain('<a href="https://example.test/x?a=1&amp;b=2">b</a>');
  expect(page).toContain('<a href="#here">c</a>');
  expect(page).toContain('[d](javascript:alert(1))');
  expect(page).toContain('[e](../README.md)');
});

test('a docs address that is not one of the pages answers ROUTE_NOT_FOUND, however it is spelt', async () => {
  const emulator = makeEmulator();
  for (const path of [
    '/_emulator/docs/..%2Fpackage.json',
    '/_emulator/docs/%2e%2e%2fREADME.md',
    '/_emulator/docs/nope.md',
    '/_emulator/docs/..%2F..%2Fpackage.json',
    '/_emulator/docs/OPTIONS.md',
  ]) {
    const response = await emulator.fetch(new Request(`${origin}${path}`));
    expect({ path, status: response.status }).toEqual({ path, status: 404 });
    expect(((await response.json()) as { message: string }).message).toBe('ROUTE_NOT_FOUND');
  }
});
