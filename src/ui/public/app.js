// The web inbox: state from the emulator's live stream (Server-Sent Events), rendered once per animation frame.
// Plain browser JavaScript with no dependencies, served as is by the emulator (nothing is fetched from elsewhere).

const limits = { messages: 2000, replies: 2000, webhooks: 1000, threads: 200, bubbles: 200, rows: 200 };
const finalOutcomes = ['delivered', 'undelivered', 'expired', 'blist', 'noroute', 'failed', 'cancelled'];
const statusIcons = {
  scheduled: '◷',
  pending: '○',
  staged: '◔',
  submitted: '◑',
  delivered: '✓',
  undelivered: '✕',
  expired: '⌛',
  blist: '⊘',
  noroute: '⤫',
  failed: '✕',
  cancelled: '⊖',
  deleted: '⌫',
  skipped: '–',
  delayed: '◷',
};
const tokenKey = 'sms-emulator-control-token';

const state = {
  clock: undefined,
  clockReceivedAt: 0,
  offsetMinutes: 0,
  accounts: new Map(),
  messages: new Map(),
  replies: new Map(),
  webhooks: new Map(),
  journal: new Map(),
};
let token = sessionStorage.getItem(tokenKey) ?? '';
let stream;
let renderQueued = false;

const $ = (id) => document.getElementById(id);
const esc = (text) => String(text ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

// ---- talking to the control API ----

class ControlFailure extends Error {
  constructor(status, body) {
    super(body?.description ?? `the emulator answered HTTP ${status}`);
    this.status = status;
    this.code = body?.message;
  }
}

async function control(method, path, body) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/_emulator${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (response.status === 401) askForToken('The token was refused; enter it again.');
  if (!response.ok) throw new ControlFailure(response.status, data);
  return data;
}

/** Runs a control call for a button and says what happened; an endpoint this emulator lacks is named as such. */
async function act(what, call) {
  try {
    const result = await call();
    notify(`${what}: done.`);
    return result;
  } catch (error) {
    if (error.status === 404 && error.code === 'ROUTE_NOT_FOUND') notify(`${what} is not available in this emulator version (it answered 404).`, true);
    else notify(`${what} failed: ${error.message}`, true);
    return undefined;
  }
}

function notify(text, problem = false) {
  const notice = $('notice');
  notice.hidden = false;
  notice.classList.toggle('problem', problem);
  notice.textContent = problem ? `⚠ ${text}` : `✓ ${text}`;
}

// ---- token and the live stream ----

function askForToken(message) {
  const dialog = $('token-dialog');
  $('token-error').textContent = message ?? '';
  if (!dialog.open) dialog.showModal();
  $('token-input').focus();
}

async function connect() {
  try {
    await control('GET', '/clock');
  } catch (error) {
    if (error.status !== 401) notify(`Cannot reach the emulator: ${error.message}`, true);
    return;
  }
  stream?.close();
  stream = new EventSource(`/_emulator/ui/events${token ? `?token=${encodeURIComponent(token)}` : ''}`);
  stream.addEventListener('state', (event) => replaceState(JSON.parse(event.data)));
  stream.addEventListener('update', (event) => applyUpdate(JSON.parse(event.data)));
  stream.addEventListener('open', () => setLive(true));
  stream.addEventListener('error', () => {
    setLive(false);
    // A refused stream (429: too many open) is closed for good by the browser, so the page asks again later.
    if (stream.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
  });
}

function setLive(live) {
  const badge = $('live');
  badge.textContent = live ? '● live' : '○ reconnecting';
  badge.classList.toggle('off', !live);
}

// ---- state ----

function keep(map, key, value, limit) {
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value);
}

function setClock(clock) {
  state.clock = clock;
  state.clockReceivedAt = Date.now();
}

function replaceState(snapshot) {
  setClock(snapshot.clock);
  state.offsetMinutes = snapshot.offsetMinutes;
  for (const name of ['accounts', 'messages', 'replies', 'webhooks']) state[name].clear();
  for (const account of snapshot.accounts) state.accounts.set(account.apiKey, account);
  // Lists arrive newest first; inserting oldest first keeps the maps in age order for trimming.
  for (const message of [...snapshot.messages].reverse()) keep(state.messages, message.id, message, limits.messages);
  for (const reply of [...snapshot.replies].reverse()) keep(state.replies, reply.id, reply, limits.replies);
  for (const event of snapshot.webhooks) keep(state.webhooks, event.id, event, limits.webhooks);
  setLive(true);
  queueRender();
}

function applyUpdate(update) {
  setClock(update.clock);
  state.accounts.clear();
  for (const account of update.accounts) state.accounts.set(account.apiKey, account);
  for (const message of update.messages) keep(state.messages, message.id, message, limits.messages);
  for (const reply of update.replies) keep(state.replies, reply.id, reply, limits.replies);
  for (const event of update.webhooks) keep(state.webhooks, event.id, event, limits.webhooks);
  queueRender();
}

/** However many updates arrive, the page is drawn at most once per frame. */
function queueRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

// ---- small view helpers ----

function chip(status) {
  const icon = statusIcons[status] ?? '•';
  return `<span class="chip s-${esc(status)}"><span aria-hidden="true">${icon}</span> ${esc(status)}</span>`;
}

function clockTime(iso) {
  if (!iso) return '';
  return `<time datetime="${esc(iso)}" title="${esc(iso)}">${esc(iso.slice(5, 10))} ${esc(iso.slice(11, 19))}</time>`;
}

function encodingText(message) {
  const segments = `${message.segments} segment${message.segments === 1 ? '' : 's'}`;
  if (message.encoding !== 'UCS-2') return `${segments} · GSM-7`;
  const trigger = message.ucs2_trigger
    ? ` (forced by “${esc(message.ucs2_trigger)}” U+${message.ucs2_trigger.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')})`
    : '';
  return `${segments} · UCS-2${trigger}`;
}

const threadKey = (environment, account, recipient) => `${environment}|${account}|${recipient}`;

/** Keeps one element per key and rewrites only those whose markup changed, so focus and scroll survive live updates. */
function renderList(container, items, tag, keyOf, viewOf) {
  const cache = (container.cache ??= new Map());
  const seen = new Set();
  let previous = null;
  for (const item of items) {
    const key = keyOf(item);
    const [className, html] = viewOf(item);
    seen.add(key);
    let entry = cache.get(key);
    if (!entry) {
      entry = { element: document.createElement(tag), html: undefined };
      cache.set(key, entry);
    }
    if (entry.html !== html) {
      entry.element.innerHTML = html;
      entry.html = html;
    }
    entry.element.className = className;
    const expected = previous ? previous.nextSibling : container.firstChild;
    if (entry.element !== expected) container.insertBefore(entry.element, expected);
    previous = entry.element;
  }
  for (const [key, entry] of cache) {
    if (seen.has(key)) continue;
    entry.element.remove();
    cache.delete(key);
  }
}

// ---- threads ----

function threads() {
  const byKey = new Map();
  let arrival = 0;
  const thread = (environment, account, recipient) => {
    const key = threadKey(environment, account, recipient);
    let found = byKey.get(key);
    if (!found) {
      found = { key, environment, account, recipient, items: [], last: '', arrival: 0 };
      byKey.set(key, found);
    }
    // Messages made in the same virtual instant are told apart by the order they arrived in.
    found.arrival = arrival++;
    return found;
  };
  for (const message of state.messages.values()) {
    for (const leg of message.legs) {
      const entry = thread(message.environment, message.account, leg.recipient);
      entry.items.push({ kind: 'sent', message, leg, at: message.creation_date });
    }
  }
  for (const reply of state.replies.values()) {
    const entry = thread(reply.environment, reply.account, reply.recipient[0]);
    entry.items.push({ kind: 'reply', message: reply, at: reply.creation_date });
  }
  for (const entry of byKey.values()) {
    entry.items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    entry.last = entry.items.at(-1)?.at ?? '';
  }
  return [...byKey.values()].sort((a, b) => Date.parse(b.last) - Date.parse(a.last) || b.arrival - a.arrival);
}

function optedOut(thread) {
  return state.accounts.get(thread.account)?.[thread.environment]?.optOuts.includes(thread.recipient) ?? false;
}

function renderInbox(route) {
  const filter = $('thread-filter').value.trim().toLowerCase();
  const all = threads();
  const shown = all
    .filter((thread) => !filter || thread.recipient.includes(filter) || thread.items.some((item) => item.message.message.toLowerCase().includes(filter)))
    .slice(0, limits.threads);
  $('threads-empty').hidden = all.length > 0;
  const current = route.key;
  renderList(
    $('thread-list'),
    shown,
    'li',
    (thread) => thread.key,
    (thread) => {
      const last = thread.items.at(-1);
      const lastStatus = [...thread.items].reverse().find((item) => item.kind === 'sent');
      const label = `${thread.recipient}${thread.environment === 'sandbox' ? ' · sandbox' : ''}`;
      return [
        thread.key === current ? 'current' : '',
        `<a href="#/inbox/${encodeURIComponent(thread.key)}"${thread.key === current ? ' aria-current="page"' : ''}>
          <span class="who">${esc(label)}${optedOut(thread) ? ' <span class="tag">⊘ opted out</span>' : ''}</span>
          <span class="when">${clockTime(thread.last)}</span>
          <span class="snippet">${last.kind === 'reply' ? '↩ ' : ''}${esc(last.message.message.slice(0, 80))}</span>
          ${lastStatus ? chip(lastStatus.leg.status) : ''}
        </a>`,
      ];
    },
  );
  const thread = all.find((entry) => entry.key === current);
  $('reply-form').hidden = !thread;
  if (!thread) {
    $('thread-title').textContent = all.length ? 'Pick a conversation' : 'No conversations yet';
    $('thread-sub').textContent = '';
    renderList($('bubbles'), [], 'li');
    return;
  }
  $('thread-title').textContent = thread.recipient;
  const account = `${thread.account} · ${thread.environment}`;
  $('thread-sub').innerHTML = `${esc(account)}${optedOut(thread) ? ' · <span class="tag">⊘ opted out: later messages end blist</span>' : ''}`;
  const list = $('bubbles');
  // Like a phone: a new message scrolls into view unless the reader has scrolled up to read older ones.
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40 || list.dataset.thread !== thread.key;
  list.dataset.thread = thread.key;
  renderList(
    list,
    thread.items.slice(-limits.bubbles),
    'li',
    (item) => item.message.id,
    (item) =>
      item.kind === 'reply'
        ? ['bubble in', `<p class="text">${esc(item.message.message)}</p><p class="meta">↩ reply · ${clockTime(item.at)}</p>`]
        : [
            'bubble out',
            `<p class="text">${esc(item.message.message)}</p>
             <p class="meta">${encodingText(item.message)} · ${clockTime(item.at)}</p>
             <p class="meta">${chip(item.leg.status)} ${item.leg.history.length > 1 ? `<span class="steps">${item.leg.history.map((change) => esc(change.status)).join(' → ')}</span>` : ''}
             <a href="#/message/${encodeURIComponent(item.message.id)}">Details<span class="visually-hidden"> of message ${esc(item.message.id)}</span></a></p>`,
          ],
  );
  if (atBottom) list.scrollTop = list.scrollHeight;
}

async function sendReply(text) {
  const thread = threads().find((entry) => entry.key === route().key);
  const sent = thread && [...thread.items].reverse().find((item) => item.kind === 'sent');
  if (!sent) return;
  const done = await act(`Reply “${text}” from ${thread.recipient}`, () =>
    control('POST', `/messages/${encodeURIComponent(sent.message.id)}/replies`, { from: thread.recipient, text }),
  );
  if (done) $('reply-text').value = '';
}

// ---- message detail ----

function historyList(changes) {
  if (!changes.length) return '<span class="muted">none</span>';
  return `<ol class="steps-list">${changes.map((change) => `<li>${chip(change.status)} ${clockTime(change.at)}</li>`).join('')}</ol>`;
}

function webhookTries(event) {
  if (!event.attempts.length) return `<span class="muted">${event.state === 'skipped' ? 'not posted: no webhook URL' : 'no try yet'}</span>`;
  return `<ol class="tries">${event.attempts
    .map(
      (attempt) =>
        `<li class="${attempt.ok ? 'ok' : 'bad'}">${attempt.ok ? '✓' : '✕'} try ${attempt.number}: ${attempt.status === undefined ? esc(attempt.error ?? 'no answer') : `HTTP ${attempt.status}`} in ${attempt.durationMs} ms · ${clockTime(attempt.at)}</li>`,
    )
    .join('')}</ol>`;
}

function renderMessage(id) {
  const message = state.messages.get(id);
  const box = $('message-detail');
  if (!message) {
    $('message-title').textContent = `Message ${id}`;
    box.innerHTML = '<p class="muted">Loading…</p>';
    loadMessage(id);
    return;
  }
  $('message-title').textContent = `Message ${message.id}`;
  const recipient = message.legs[0]?.recipient ?? '';
  $('back-to-thread').href = `#/inbox/${encodeURIComponent(threadKey(message.environment, message.account, recipient))}`;
  const events = [...state.webhooks.values()].filter((event) => event.messageId === message.id);
  const journal = state.journal.get(id);
  const open = message.legs.filter((leg) => !finalOutcomes.includes(leg.status));
  const html = `
    <p>${chip(message.status)} <span class="text-block">${esc(message.message)}</span></p>
    <dl class="facts">
      <dt>Account</dt><dd>${esc(message.account)} · ${esc(message.environment)}</dd>
      <dt>Encoding</dt><dd>${encodingText(message)}</dd>
      <dt>Credits</dt><dd>${message.credit}</dd>
      <dt>Created</dt><dd>${clockTime(message.creation_date)}</dd>
      ${message.schedule ? `<dt>Scheduled for</dt><dd>${clockTime(message.schedule)}</dd>` : ''}
      ${message.client_reference ? `<dt>Client reference</dt><dd>${esc(message.client_reference)}</dd>` : ''}
    </dl>
    <h3>Legs</h3>
    <div class="table-wrap"><table><thead><tr><th scope="col">Recipient</th><th scope="col">Status</th><th scope="col">History</th><th scope="col">Upcoming steps</th></tr></thead><tbody>
      ${message.legs.map((leg) => `<tr><td>${esc(leg.recipient)}</td><td>${chip(leg.status)}</td><td>${historyList(leg.history)}</td><td>${historyList(leg.upcoming)}</td></tr>`).join('')}
    </tbody></table></div>
    <h3>Message status history</h3>${historyList(message.history)}
    <h3>Force an outcome</h3>
    ${
      open.length
        ? `<form id="force-form" class="inline-form"><label for="force-status">Outcome</label>
            <select id="force-status">${finalOutcomes.map((status) => `<option>${status}</option>`).join('')}</select>
            <label for="force-recipient">Legs</label>
            <select id="force-recipient"><option value="">every open leg</option>${open.map((leg) => `<option>${esc(leg.recipient)}</option>`).join('')}</select>
            <button type="submit">Force outcome</button></form>`
        : '<p class="muted">Every leg has its final outcome.</p>'
    }
    <h3>Webhook tries</h3>
    ${events.length ? `<ul class="events">${events.map((event) => `<li class="${event.state === 'failed' ? 'failed' : ''}">${esc(event.kind)} (${esc(event.status)}) to ${esc(event.recipient)} ${chip(event.state)}${webhookTries(event)}</li>`).join('')}</ul>` : '<p class="muted">No webhook events for this message.</p>'}
    <h3>Request that created it</h3>
    ${journalView(journal)}`;
  const focused = document.activeElement?.id;
  const keepForm = $('force-form') && box.dataset.id === id && box.dataset.open === String(open.length);
  if (box.dataset.html === html && box.dataset.id === id) return;
  // The form is left alone while it is in use, so a live update does not reset a choice being made.
  if (keepForm) {
    const form = $('force-form');
    box.innerHTML = html;
    $('force-form').replaceWith(form);
  } else box.innerHTML = html;
  box.dataset.html = html;
  box.dataset.id = id;
  box.dataset.open = String(open.length);
  if (focused) $(focused)?.focus();
  if (!state.journal.has(id)) loadJournal(id);
}

function journalView(journal) {
  if (journal === undefined) return '<p class="muted">Looking in the request journal…</p>';
  if (journal.unavailable) return `<p class="muted">${esc(journal.unavailable)}</p>`;
  if (!journal.entry) return '<p class="muted">The request journal has no entry for this message (it may have been trimmed).</p>';
  const entry = journal.entry;
  return `<p><code>${esc(entry.method)} ${esc(entry.path)}</code> → ${esc(entry.status)} ${esc(entry.code ?? '')} · ${clockTime(entry.time)} · ${esc(entry.durationMs)} ms</p>
    <pre class="body">${esc(JSON.stringify(entry.requestBody, null, 2))}</pre>`;
}

async function loadMessage(id) {
  try {
    const message = await control('GET', `/messages/${encodeURIComponent(id)}`);
    keep(state.messages, message.id, message, limits.messages);
  } catch (error) {
    $('message-detail').innerHTML = `<p class="error">⚠ ${esc(error.message)}</p>`;
    return;
  }
  queueRender();
}

async function loadJournal(id) {
  state.journal.set(id, undefined);
  let journal;
  try {
    const answer = await control('GET', `/requests?message=${encodeURIComponent(id)}&method=POST`);
    const items = answer.items ?? answer.requests ?? [];
    journal = { entry: items[0] };
  } catch (error) {
    journal = { unavailable: error.status === 404 ? 'This emulator keeps no request journal.' : `The request journal could not be read: ${error.message}` };
  }
  state.journal.set(id, journal);
  queueRender();
}

// ---- webhook log ----

function renderWebhooks() {
  const failedOnly = $('failed-only').checked;
  const events = [...state.webhooks.values()]
    .reverse()
    .filter((event) => !failedOnly || event.state === 'failed')
    .slice(0, limits.rows);
  $('webhooks-empty').hidden = events.length > 0;
  renderList(
    $('webhook-rows'),
    events,
    'tr',
    (event) => event.id,
    (event) => [
      event.state === 'failed' ? 'failed' : '',
      `<td>${clockTime(event.createdAt)}</td>
       <td>${esc(event.kind)} · ${esc(event.status)}${event.chaos.length ? ` <span class="tag">${esc(event.chaos.join(', '))}</span>` : ''}</td>
       <td><a href="#/message/${encodeURIComponent(event.messageId)}">${esc(event.messageId.slice(0, 8))}…</a> to ${esc(event.recipient)}</td>
       <td class="url">${esc(event.url ?? '(no webhook URL)')}</td>
       <td>${event.state === 'failed' ? '<strong>⚠ failed</strong>' : chip(event.state)}</td>
       <td>${webhookTries(event)}</td>
       <td>${event.url ? `<button type="button" data-redeliver="${esc(event.id)}">Redeliver<span class="visually-hidden"> event ${esc(event.id)}</span></button>` : ''}</td>`,
    ],
  );
}

// ---- accounts ----

function renderAccounts() {
  renderList(
    $('account-cards'),
    [...state.accounts.values()],
    'article',
    (account) => account.apiKey,
    (account) => [
      'card',
      `<h3><code>${esc(account.apiKey)}</code></h3>
       <p class="muted">scopes: ${esc(account.scopes.join(', ') || 'all')}</p>
       ${['live', 'sandbox']
         .map((environment) => {
           const wallet = account[environment];
           return `<section><h4>${environment}</h4><dl class="facts">
             <dt>Balance</dt><dd><strong>${wallet.balance}</strong> credits</dd>
             <dt>Webhook URL</dt><dd class="url">${esc(wallet.webhookUrl ?? 'none')}</dd>
             <dt>Messages</dt><dd>${wallet.messages}</dd>
             <dt>Opted out</dt><dd>${wallet.optOuts.length ? wallet.optOuts.map((number) => `<span class="tag">⊘ ${esc(number)}</span>`).join(' ') : '<span class="muted">nobody</span>'}</dd>
           </dl></section>`;
         })
         .join('')}
       <p><button type="button" data-report="${esc(account.apiKey)}">Timeline report</button> <button type="button" data-report="${esc(account.apiKey)}" data-format="json">Report as JSON</button></p>`,
    ],
  );
}

async function openReport(account, format) {
  const response = await fetch(`/_emulator/report?account=${encodeURIComponent(account)}&format=${format}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) return notify(`The timeline report failed: HTTP ${response.status}`, true);
  const url = URL.createObjectURL(await response.blob());
  window.open(url, '_blank', 'noopener');
}

// ---- clock ----

function currentTime() {
  const clock = state.clock;
  if (!clock) return undefined;
  return clock.mode === 'realtime' ? clock.now + (Date.now() - state.clockReceivedAt) * clock.speed : clock.now;
}

function renderClock() {
  const clock = state.clock;
  if (!clock) return;
  const shown = new Date(currentTime() + state.offsetMinutes * 60_000).toISOString();
  const offset = clock.time.slice(19);
  const element = $('clock-time');
  element.textContent = `${shown.slice(0, 10)} ${shown.slice(11, 19)} ${offset}`;
  element.dateTime = clock.time;
  const realtime = clock.mode === 'realtime';
  $('clock-mode').className = `chip ${realtime ? 's-submitted' : 's-scheduled'}`;
  $('clock-mode').textContent = realtime ? `▶ realtime ×${clock.speed}` : '■ manual';
  $('clock-tasks').textContent = `${clock.pendingTasks} due later`;
  const pause = $('pause');
  pause.textContent = realtime ? 'Pause' : 'Resume';
  pause.setAttribute('aria-pressed', String(!realtime));
}

async function moveClock(command, what) {
  const clock = await act(what, () => control('POST', '/clock', command));
  if (clock) {
    setClock(clock);
    queueRender();
  }
}

// ---- pages ----

function route() {
  const [page = 'inbox', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  const value = decodeURIComponent(rest.join('/'));
  return page === 'message' ? { page, id: value } : { page: ['inbox', 'webhooks', 'accounts'].includes(page) ? page : 'inbox', key: value };
}

function render() {
  renderClock();
  const current = route();
  for (const page of ['inbox', 'message', 'webhooks', 'accounts']) $(`page-${page}`).hidden = page !== current.page;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.page === (current.page === 'message' ? 'inbox' : current.page)) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const failed = [...state.webhooks.values()].filter((event) => event.state === 'failed').length;
  $('failed-count').hidden = failed === 0;
  $('failed-count').textContent = `⚠ ${failed} failed`;
  if (current.page === 'inbox') renderInbox(current);
  else if (current.page === 'message') renderMessage(current.id);
  else if (current.page === 'webhooks') renderWebhooks();
  else renderAccounts();
}

function wire() {
  for (const button of document.querySelectorAll('[data-advance]')) {
    button.addEventListener('click', () => moveClock({ advance: button.dataset.advance }, `Advance the clock ${button.textContent}`));
  }
  $('run-idle').addEventListener('click', () => moveClock({ runUntilIdle: true }, 'Run until idle'));
  $('pause').addEventListener('click', () => {
    const realtime = state.clock?.mode === 'realtime';
    moveClock({ mode: realtime ? 'manual' : 'realtime' }, realtime ? 'Pause the clock' : 'Resume the clock');
  });
  $('thread-filter').addEventListener('input', queueRender);
  $('failed-only').addEventListener('change', queueRender);
  $('reply-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('reply-text').value.trim();
    if (text) sendReply(text);
  });
  $('reply-stop').addEventListener('click', () => sendReply('STOP'));
  document.addEventListener('click', (event) => {
    const redeliver = event.target.closest('[data-redeliver]');
    if (redeliver) act('Redeliver the webhook event', () => control('POST', `/webhooks/${encodeURIComponent(redeliver.dataset.redeliver)}/redeliver`));
    const report = event.target.closest('[data-report]');
    if (report) openReport(report.dataset.report, report.dataset.format ?? 'html');
  });
  document.addEventListener('submit', (event) => {
    if (event.target.id !== 'force-form') return;
    event.preventDefault();
    const id = route().id;
    const recipient = $('force-recipient').value;
    const body = { status: $('force-status').value, ...(recipient ? { recipient } : {}) };
    act(`Force ${body.status}`, () => control('POST', `/messages/${encodeURIComponent(id)}/status`, body)).then((message) => {
      if (message?.id) keep(state.messages, message.id, message, limits.messages);
      queueRender();
    });
  });
  $('token-form').addEventListener('submit', () => {
    token = $('token-input').value;
    sessionStorage.setItem(tokenKey, token);
    connect();
  });
  window.addEventListener('hashchange', () => {
    render();
    // Moving focus to the new page's heading tells keyboard and screen-reader users where they are.
    const heading = { inbox: 'thread-title', message: 'message-title', webhooks: 'webhooks-title', accounts: 'accounts-title' }[route().page];
    $(heading)?.focus();
  });
  // Only the displayed time moves here; no request is made.
  setInterval(() => state.clock?.mode === 'realtime' && renderClock(), 1000);
}

wire();
render();
connect();
