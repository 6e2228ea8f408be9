/** The web inbox in a real browser (Debian's Chromium through playwright-core): live threads, clock, replies, webhooks, report. */

import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { type Browser, type Page, chromium } from 'playwright-core';
import { createWebhookCatcher, type Emulator, type EmulatorUrls, type WebhookCatcher } from '../../src/index.js';
import { apiKey, makeEmulator, scheduleIn, send } from '../support/api.js';
import { chromiumPath } from '../support/browser.js';

const screenshots = new URL('../../.ci-out/screenshots/', import.meta.url);
const number = '27831234567';

let browser: Browser;
let catcher: WebhookCatcher;
let emulator: Emulator;
let urls: EmulatorUrls;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
  catcher = await createWebhookCatcher();
  emulator = makeEmulator({ webhookUrl: catcher.url, webhookTimeout: '2s' });
  urls = await emulator.listen({ port: 0 });
});

afterAll(async () => {
  await browser?.close();
  await emulator?.close();
  await catcher?.close();
});

beforeEach(async () => {
  emulator.reset();
  catcher.clear();
  catcher.respondWith(200);
  page = await openPage(urls.origin);
});

afterEach(async () => {
  await page.context().close();
  expect(pageErrors).toEqual([]);
});

async function openPage(origin: string, path = '/'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Shorter than the test timeout, so a missing element is named in the failure.
  context.setDefaultTimeout(8_000);
  const opened = await context.newPage();
  pageErrors = [];
  opened.on('pageerror', (error) => pageErrors.push(error.message));
  await opened.goto(origin + path);
  return opened;
}

const shoot = (name: string) => page.screenshot({ path: new URL(`${name}.png`, screenshots).pathname });
const live = () => page.getByRole('status').filter({ hasText: '● live' }).waitFor();
const thread = (recipient: string) => page.getByRole('link', { name: new RegExp(recipient) }).first();
const bubbles = () => page.getByRole('list', { name: 'Messages in this conversation' });

test('a message sent through the API appears in the open inbox without a reload', async () => {
  expect(page.url()).toBe(`${urls.origin}/_emulator/ui`);
  await live();
  await send(emulator, { recipient: [number], message: 'Your code is 1234' });
  await send(emulator, { recipient: [number], message: 'Ça coûte 5€, à bientôt' });
  await thread(number).click();
  await bubbles().getByText('Your code is 1234').waitFor();
  await bubbles().getByText('1 segment · GSM-7').waitFor();
  await bubbles().getByText('1 segment · UCS-2 (forced by “û” U+00FB)').waitFor();
  expect(await bubbles().getByText('○ pending').count()).toBe(2);
  await shoot('inbox');
});

test('a bubble shows what the message cost and marks each character that forced UCS-2, titled with its code point and suggestion', async () => {
  await live();
  await send(emulator, { recipient: [number, '27831234568'], message: '<i>It’s</i> here' });
  await thread(number).click();
  await bubbles().getByText('2 credits · 16 UTF-16 units × 2 recipients').waitFor();
  const mark = bubbles().locator('mark');
  expect(await mark.count()).toBe(1);
  expect(await mark.textContent()).toBe('’');
  expect(await mark.getAttribute('title')).toBe('position 6: "’" U+2019 RIGHT SINGLE QUOTATION MARK, use "\'"');
  expect(await bubbles().locator('.text').first().textContent()).toBe('<i>It’s</i> here');
  expect(await page.locator('#bubbles i').count()).toBe(0);
  await page
    .getByRole('link', { name: /Details/ })
    .first()
    .click();
  await page.getByText('2 credits · 16 UTF-16 units × 2 recipients', { exact: true }).waitFor();
  expect(await page.locator('.text-block mark').getAttribute('title')).toMatch(/^position 6: "’" U\+2019/);
  await shoot('inbox-cost');
});

test('message text is shown as text, never run as markup', async () => {
  await live();
  await send(emulator, { recipient: [number], message: '<img src=x onerror="document.title=1"><b>bold</b>' });
  await thread(number).click();
  await bubbles().getByText('<img src=x onerror="document.title=1"><b>bold</b>').waitFor();
  expect(await page.locator('#bubbles img, #bubbles b').count()).toBe(0);
  expect(await page.title()).toBe('Inbox · sms-emulator');
});

test('a long thread opens scrolled to its newest message, and a new one scrolls into view', async () => {
  await live();
  for (let i = 0; i < 25; i++) await send(emulator, { recipient: [number], message: `line ${i}` });
  await thread(number).click();
  await bubbles().getByText('line 24').waitFor();
  const atBottom =
    '((list) => Math.abs(list.scrollHeight - list.scrollTop - list.clientHeight) < 2)(document.getElementById("bubbles"))';
  expect(await page.evaluate(atBottom)).toBe(true);
  await send(emulator, { recipient: [number], message: 'newest' });
  await bubbles().getByText('newest').waitFor();
  await page.waitForFunction(atBottom);
});

test('advancing the clock from the page moves the thread to delivered', async () => {
  await live();
  await send(emulator, { recipient: [number], message: 'Tick tock' });
  await thread(number).click();
  await bubbles().getByText('○ pending').waitFor();
  await page.getByRole('button', { name: '+1 min' }).click();
  await bubbles().getByText('✓ delivered').waitFor();
  await bubbles().getByText('pending → submitted → delivered').waitFor();
  await page.getByText('2026-11-21 12:01:00 +02:00').waitFor();
  expect(emulator.clock.state().now).toBe(Date.parse('2026-11-21T10:01:00Z'));
});

test('run until idle from the page fires everything due, a scheduled send included', async () => {
  await live();
  await send(emulator, { recipient: [number], message: 'Later today', schedule: scheduleIn(20) });
  await thread(number).click();
  await bubbles().getByText('◷ scheduled').waitFor();
  await page.getByRole('button', { name: 'Run until idle' }).click();
  await bubbles().getByText('✓ delivered').waitFor();
  await page.getByText('0 due later').waitFor();
  expect(emulator.clock.state().pendingTasks).toBe(0);
});

test('pause and resume switch the clock between manual and realtime', async () => {
  await live();
  await page.getByText('■ manual').waitFor();
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByText('▶ realtime ×1').waitFor();
  expect(emulator.clock.state().mode).toBe('realtime');
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByText('■ manual').waitFor();
  expect(emulator.clock.state().mode).toBe('manual');
});

test('replying STOP from the page opts the number out and the reply webhook shows in the log', async () => {
  await live();
  await send(emulator, { recipient: [number], message: 'Reply STOP to opt out' });
  await thread(number).click();
  await page.getByRole('button', { name: 'Reply STOP' }).click();
  await bubbles().getByText('STOP', { exact: true }).waitFor();
  await page.getByText('⊘ opted out: later messages end blist').waitFor();
  expect(emulator.optOuts.list().items).toEqual([number]);
  await shoot('thread');
  await page.getByRole('link', { name: /^Webhooks/ }).click();
  await page.getByRole('row', { name: /reply · delivered/ }).waitFor();
  await shoot('webhooks');
});

test('a reply typed into the thread arrives as an inbound reply', async () => {
  await live();
  const message = await send(emulator, { recipient: [number], message: 'Can you make it?' });
  await thread(number).click();
  await page.getByLabel('Reply as this handset').fill('Yes, see you at 5');
  await page.getByLabel('Reply as this handset').press('Enter');
  await bubbles().getByText('Yes, see you at 5').waitFor();
  expect(emulator.replies.list().items.map((reply) => [reply.in_reply_to, reply.message])).toEqual([
    [message.id, 'Yes, see you at 5'],
  ]);
});

test('a failed webhook event is highlighted in the log and redelivered from it', async () => {
  catcher.respondWith(500);
  await send(emulator, { recipient: [number], message: 'Receiver is down' });
  await emulator.clock.advance('1s');
  await page.getByRole('link', { name: /^Webhooks/ }).click();
  const row = page.getByRole('row', { name: /submitted/ });
  await row.getByText('⚠ failed').waitFor();
  await page.getByText('⚠ 1 failed').waitFor();
  await shoot('webhooks-failed');
  catcher.respondWith(200);
  await row.getByRole('button', { name: /Redeliver/ }).click();
  await row.getByText('try 5: HTTP 200').waitFor();
  await row.getByText('✓ delivered').waitFor();
  expect(emulator.webhooks.list().items[0]?.state).toBe('delivered');
});

test('the message detail shows legs, history, upcoming steps, every webhook try and the request from the journal', async () => {
  await live();
  const message = await send(emulator, { recipient: [number, '27831112222'], message: 'Two legs' });
  await emulator.clock.advance('1s');
  await thread(number).click();
  await bubbles()
    .getByRole('link', { name: /Details/ })
    .click();
  await page.getByRole('heading', { name: `Message ${message.id}` }).waitFor();
  const legs = page.getByRole('table').first();
  await legs.getByRole('row', { name: /27831112222 .*submitted/ }).waitFor();
  await legs.getByText('◑ submitted').first().waitFor();
  await page
    .getByText(/try 1: HTTP 200 in \d+ ms/)
    .first()
    .waitFor();
  await page.getByRole('button', { name: 'Force outcome' }).waitFor();
  await page.getByText('POST /v1/messages', { exact: true }).waitFor();
  await page.getByText('"message": "Two legs"').waitFor();
  await shoot('message');
});

test('force outcome on the detail page moves the open legs and the thread follows', async () => {
  await live();
  const message = await send(emulator, { recipient: [number], message: 'Force me' });
  await page.goto(`${urls.origin}/_emulator/ui#/message/${message.id}`);
  await page.getByLabel('Outcome').selectOption('undelivered');
  await page.getByRole('button', { name: 'Force outcome' }).click();
  await page.getByText('✓ Force undelivered: done.').waitFor();
  await page.getByRole('table').first().getByText('✕ undelivered').first().waitFor();
  expect(emulator.messages.get(message.id).status).toBe('undelivered');
  await page.getByRole('link', { name: '← Back to the conversation' }).click();
  await bubbles().getByText('✕ undelivered').waitFor();
});

test('the accounts page shows keys, balances, webhook URLs and opt-outs', async () => {
  emulator.optOuts.add(number);
  await page.getByRole('link', { name: 'Accounts' }).click();
  const card = page.getByRole('article').filter({ hasText: apiKey });
  await card.getByText('1000', { exact: true }).first().waitFor();
  await card.getByText(catcher.url).first().waitFor();
  await card.getByText(`⊘ ${number}`).waitFor();
  await send(emulator, { recipient: [number], message: 'costs one credit' });
  await card.getByText('999', { exact: true }).first().waitFor();
  await shoot('accounts');
});

test('the page is usable from the keyboard alone', async () => {
  await live();
  await send(emulator, { recipient: [number], message: 'Keyboard' });
  await thread(number).waitFor();
  await thread(number).focus();
  await page.keyboard.press('Enter');
  await bubbles().getByText('Keyboard').waitFor();
  await page.getByLabel('Reply as this handset').focus();
  await page.keyboard.type('ok');
  await page.keyboard.press('Enter');
  await bubbles().getByText('ok', { exact: true }).waitFor();
});

test('a narrow window stacks the page without sideways scrolling, and dark mode follows the system', async () => {
  await send(emulator, { recipient: [number], message: 'Small screen' });
  await page.setViewportSize({ width: 400, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await thread(number).click();
  await bubbles().getByText('Small screen').waitFor();
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(16, 19, 23)');
  await shoot('narrow-dark');
});

test('hundreds of messages at once leave the page responsive with bounded lists', async () => {
  await live();
  await Promise.all(
    Array.from({ length: 400 }, (_, i) =>
      send(emulator, { recipient: [`2783200${String(i).padStart(4, '0')}`], message: `bulk ${i}` }),
    ),
  );
  await thread('27832000399').waitFor();
  expect(await page.locator('#thread-list > li').count()).toBe(200);
  expect(await page.evaluate('document.querySelectorAll("*").length')).toBeLessThan(5_000);
});

test('the timeline report opens in the browser and shows the same events as its JSON', async () => {
  catcher.respondWith([500, 200]);
  const message = await send(emulator, { recipient: [number], message: 'Report me' });
  await emulator.clock.advance('1m');
  emulator.replies.inject(message.id, { text: 'STOP' });
  await emulator.webhooks.settled();
  const json = emulator.report({ format: 'json' });
  await page.goto(`${urls.origin}/_emulator/report?account=${apiKey}`);
  const rows = page.locator('#timeline tbody tr');
  expect(await rows.count()).toBe(json.entries.length);
  const shown = await Promise.all(
    (await rows.all()).map(async (row) => [
      await row.locator('time').textContent(),
      await row.locator('.what').textContent(),
    ]),
  );
  expect(shown).toEqual(json.entries.map((entry) => [entry.at, entry.summary]));
  expect(await page.locator('tr.problem').count()).toBe(json.entries.filter((entry) => entry.problem).length);
  await shoot('report');
});

test('the accounts page opens an account timeline report in a new tab, with its own styles', async () => {
  await send(emulator, { recipient: [number], message: 'In the report' });
  await page.getByRole('link', { name: 'Accounts' }).click();
  const [report] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: 'Timeline report' }).click(),
  ]);
  await report.getByRole('heading', { name: `Timeline of ${apiKey}` }).waitFor();
  await report.getByText(`to ${number}: pending`).waitFor();
  // The report opens as a blob: page, which inherits the inbox's policy: its inline style must still apply.
  expect(await report.evaluate('getComputedStyle(document.body).padding')).toBe('24px');
});

test('with a control token the page asks for it, then uses it for the stream and every call', async () => {
  const guarded = makeEmulator({ controlToken: 'let-me-in' });
  const guardedUrls = await guarded.listen({ port: 0 });
  try {
    await page.context().close();
    page = await openPage(guardedUrls.origin);
    await page.getByRole('dialog', { name: 'Control token' }).waitFor();
    await page.getByLabel('Token', { exact: true }).fill('let-me-in');
    await page.getByRole('button', { name: 'Connect' }).click();
    await live();
    await send(guarded, { recipient: [number], message: 'Guarded' });
    await thread(number).click();
    await page.getByRole('button', { name: '+1 h' }).click();
    await bubbles().getByText('✓ delivered').waitFor();
  } finally {
    await guarded.close();
  }
});

test("an account on a test clock shows that clock's time on the accounts page, and its buttons move that clock only", async () => {
  const clock = emulator.clocks.create({ name: 'inbox', startTime: '2030-01-01T00:00:00Z' });
  emulator.accounts.create({ apiKey: 'pk_inbox_clock', clock: clock.id });
  const sent = await send(
    emulator,
    { recipient: [number], message: 'On its own time' },
    'live',
    'pk_inbox_clock',
    'sk_test_inbox_clock',
  );
  await page.getByRole('link', { name: 'Accounts' }).click();
  const card = page.getByRole('article').filter({ hasText: 'pk_inbox_clock' });
  await card.getByText('2030-01-01 02:00:00 +02:00').waitFor();
  await page.getByRole('article').filter({ hasText: apiKey }).getByText('clock: the main clock (above)').waitFor();
  await card.getByRole('button', { name: `Advance ${clock.id} by 1 h` }).click();
  await card.getByText('2030-01-01 03:00:00 +02:00').waitFor();
  expect(emulator.clocks.get(clock.id).now).toBe(Date.parse('2030-01-01T01:00:00Z'));
  expect(emulator.messages.get(sent.id).status).toBe('delivered');
  // The header's main clock did not move.
  expect(emulator.clock.state().now).toBe(Date.parse('2026-11-21T10:00:00Z'));
  await page.getByText('2026-11-21 12:00:00 +02:00').waitFor();
  await shoot('accounts-test-clock');
});
