/** The parity report as one self-contained HTML page, in the style of the timeline report and check-receiver's page. */

import { escapeHtml } from '../ui/escapeHtml.js';
import { type ParityReport, parityCounts, shownTier } from './parityDiff.js';

const style = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2430}h1{font-size:1.3rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde2ea;padding:.35rem .5rem;text-align:left;vertical-align:top}
.error{color:#b3261e;font-weight:600}.warn{color:#8a5a00;font-weight:600}.info{color:#4a5568}.pass{color:#16794c;font-weight:600}
code{font-size:.92em}`;

export function parityReportPage(report: ParityReport, name = 'transcript'): string {
  const rows = report.findings
    .map(
      (finding) =>
        `<tr><td class="${finding.tier}">${shownTier(finding)}</td><td>${finding.line}</td><td><code>${escapeHtml(finding.kind)}</code></td><td><code>${escapeHtml(finding.field)}</code></td><td>${escapeHtml(finding.message)}</td></tr>`,
    )
    .join('');
  const verdict = parityCounts(report);
  const lines = Object.entries(report.lines)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parity of ${escapeHtml(name)} · sms-emulator</title><style>${style}</style></head>
<body><h1>Parity: <code>${escapeHtml(name)}</code></h1>
<p class="${report.passed ? 'pass' : 'error'}">${report.passed ? 'passed' : 'failed'}: ${escapeHtml(verdict)}</p><p>${escapeHtml(lines)}</p>
${report.findings.length === 0 ? '<p>No differences: the emulator answers this transcript as it was recorded.</p>' : `<table><thead><tr><th>tier</th><th>line</th><th>kind</th><th>field</th><th>what differs</th></tr></thead><tbody>${rows}</tbody></table>`}
</body></html>
`;
}
