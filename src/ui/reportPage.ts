/** The timeline report as one self-contained HTML file: inline CSS, no script, nothing fetched, the JSON data embedded. */

import { createHash } from 'node:crypto';
import { plural } from '../domain/plural.js';
import { escapeHtml } from './escapeHtml.js';
import { markTriggers } from './markTriggers.js';
import type { TimelineKind, TimelineMessage, TimelineReport } from './timelineReport.js';

/** Each kind has its own symbol so the page never relies on colour alone. */
const kindLabels: Record<TimelineKind, string> = {
  clock: '◷ clock',
  fault: '⚡ fault',
  request: '→ request',
  status: '● status',
  reply: '↩ reply',
  webhook: '⇢ webhook',
};

const style = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#5b6570;--line:#d8dde3;--bad:#b42318;--bad-bg:#fdecea;--head:#f4f6f8}
@media (prefers-color-scheme:dark){:root{--bg:#14171b;--fg:#e6e9ed;--muted:#9aa4ae;--line:#2d333a;--bad:#ff8a80;--bad-bg:#3a1d1b;--head:#1d2126}}
body{margin:0;padding:1.5rem;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:1.3rem;margin:0 0 .3rem}p{margin:.2rem 0 1rem;color:var(--muted)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--head);position:sticky;top:0}td.time{white-space:nowrap;font-variant-numeric:tabular-nums}
td.kind{white-space:nowrap}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}
tr.problem td{background:var(--bad-bg)}tr.problem td.what::before{content:"⚠ problem: ";font-weight:600;color:var(--bad)}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}td.cost{white-space:nowrap}
mark{background:var(--bad-bg);color:inherit;outline:1px solid var(--bad);border-radius:2px}mark::after{content:"⚑";font-size:.7em;vertical-align:super;color:var(--bad)}
`;

/**
 * The CSP source that admits the report's own style element. A report the inbox opens (a blob: page) inherits the
 * inbox's policy, which allows no inline style: the inbox's policy names this hash so the report keeps its styles.
 */
export const reportStyleSource = (): string =>
  (styleSource ??= `'sha256-${createHash('sha256').update(style).digest('base64')}'`);
let styleSource: string | undefined;

/** The report's own policy, sent as a header too (frame-ancestors is only obeyed there). */
export const reportPolicy = "default-src 'none'; style-src 'unsafe-inline'";

/** The cost column: what the message was charged, and why (`2 credits: UCS-2, 18 UTF-16 units, 1 segment × 2 recipients`). */
function costCell(message: TimelineMessage): string {
  const units = `${message.units} ${message.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}`;
  return `${plural(message.credit, 'credit')}: ${message.encoding}, ${units}, ${plural(message.segments, 'segment')} × ${plural(message.recipients.length, 'recipient')}`;
}

/** The messages and what each cost, the characters that forced UCS-2 marked in the text; nothing for an account that sent none. */
function messagesTable(messages: readonly TimelineMessage[]): string {
  if (messages.length === 0) return '';
  const rows = messages
    .map(
      (message) =>
        `<tr><td class="time"><time datetime="${escapeHtml(message.at)}">${escapeHtml(message.at)}</time></td><td>${escapeHtml(message.environment)}</td><td><code>${escapeHtml(message.id)}</code></td><td>${escapeHtml(message.recipients.join(', '))}</td><td class="text">${markTriggers(message.text, message.triggers)}</td><td class="cost">${escapeHtml(costCell(message))}</td></tr>`,
    )
    .join('\n');
  return `<h2>Messages and what they cost</h2>
<p>A marked character forced UCS-2: its title says where it stands, its code point and what was usually meant.</p>
<table id="messages"><thead><tr><th scope="col">Sent (virtual)</th><th scope="col">Env</th><th scope="col">Message</th><th scope="col">To</th><th scope="col">Text</th><th scope="col">Cost</th></tr></thead>
<tbody>
${rows}
</tbody></table>
`;
}

export function reportPage(report: TimelineReport): string {
  const problems = report.entries.filter((entry) => entry.problem).length;
  const rows = report.entries
    .map(
      (entry) =>
        `<tr class="kind-${entry.kind}${entry.problem ? ' problem' : ''}" data-kind="${entry.kind}"><td class="time"><time datetime="${escapeHtml(entry.at)}">${escapeHtml(entry.at)}</time></td><td class="kind">${kindLabels[entry.kind]}</td><td>${escapeHtml(entry.environment ?? '')}</td><td><code>${escapeHtml(entry.messageId ?? '')}</code></td><td class="what">${escapeHtml(entry.summary)}</td></tr>`,
    )
    .join('\n');
  // `<` is escaped inside the embedded JSON so no text in it can close the script element.
  const data = JSON.stringify(report).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${reportPolicy}">
<title>Timeline of ${escapeHtml(report.account)} · sms-emulator</title><style>${style}</style></head>
<body><h1>Timeline of <code>${escapeHtml(report.account)}</code></h1>
<p>Made at <time datetime="${escapeHtml(report.generatedAt)}">${escapeHtml(report.generatedAt)}</time> on ${report.clock === null ? 'the emulator clock' : `test clock <code>${escapeHtml(report.clock)}</code>`} · seed <code>${escapeHtml(report.seed)}</code> · ${report.entries.length} entries · ${problems} marked as problems</p>
<table id="timeline"><thead><tr><th scope="col">Time (virtual)</th><th scope="col">Kind</th><th scope="col">Env</th><th scope="col">Message</th><th scope="col">What happened</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${messagesTable(report.messages)}<script type="application/json" id="timeline-data">${data}</script>
</body></html>
`;
}
