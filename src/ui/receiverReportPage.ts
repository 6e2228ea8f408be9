/** check-receiver's report as one self-contained HTML page: every check, its answers, what a gateway does next. */

import type { ReceiverReport } from '../webhooks/checkReceiver.js';
import { escapeHtml } from './escapeHtml.js';

const style = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2430}h1{font-size:1.3rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde2ea;padding:.35rem .5rem;text-align:left;vertical-align:top}
.pass{color:#16794c;font-weight:600}.fail{color:#b3261e;font-weight:600}details{margin:.2rem 0}code{font-size:.92em}`;

export function receiverReportPage(report: ReceiverReport): string {
  const rows = report.checks
    .map((check) => {
      const answers = check.answers
        .map(
          (answer) =>
            `<li>${escapeHtml(answer.about)}: ${escapeHtml(answer.status === undefined ? (answer.error ?? 'no answer') : String(answer.status))} (${answer.ms} ms)</li>`,
        )
        .join('');
      const states = (check.state ?? [])
        .map(
          (reading) =>
            `<li>${escapeHtml(reading.message)}: expected ${escapeHtml(`${reading.expected.status} after ${reading.expected.notifications}`)}, ${escapeHtml(reading.held === undefined ? (reading.error ?? 'no answer') : `held ${reading.held.status}${reading.held.notifications === undefined ? '' : ` after ${reading.held.notifications}`}`)}</li>`,
        )
        .join('');
      const stateList =
        check.state === undefined
          ? ''
          : `<details><summary>${check.state.length} states read</summary><ul>${states}</ul></details>`;
      return `<tr><td class="${check.passed ? 'pass' : 'fail'}">${check.passed ? 'pass' : 'FAIL'}</td><td><code>${escapeHtml(check.name)}</code><br>${escapeHtml(check.sends)}</td><td>${escapeHtml(check.reason)}<details><summary>${check.answers.length} answers</summary><ul>${answers}</ul></details>${stateList}</td><td>${escapeHtml(check.gatewayNext)}</td></tr>`;
    })
    .join('');
  const verdict = report.passed
    ? `every check passed, ${report.state === undefined ? 'on the answers alone' : 'answers and state'}`
    : `${report.checks.filter((check) => !check.passed).length} of ${report.checks.length} checks failed`;
  const unseen =
    report.unseen.length === 0
      ? ''
      : `<h2>Not seen</h2><ul>${report.unseen.map((what) => `<li>${escapeHtml(what)}</li>`).join('')}</ul>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>check-receiver: ${escapeHtml(report.url)}</title><style>${style}</style></head>
<body><h1>check-receiver: <code>${escapeHtml(report.url)}</code></h1>
<p>${escapeHtml(verdict)}; timeout ${report.timeoutMs} ms${report.state === undefined ? '' : `; state hook <code>${escapeHtml(report.state)}</code>`}.${report.unreachable === undefined ? '' : ` ${escapeHtml(report.unreachable)}.`}</p>
<table><thead><tr><th></th><th>check</th><th>result</th><th>what a gateway does next</th></tr></thead><tbody>${rows}</tbody></table>${unseen}</body></html>
`;
}
