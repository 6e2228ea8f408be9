/** `parityDiff`: replays a transcript into a fresh emulator and compares, with the verdict in tiers. */

import type { Finding } from './compareTranscript.js';
import { compareTranscript } from './compareTranscript.js';
import { type ParityRulesInput, type Tier, parityRules } from './parityRules.js';
import { type ReplayOptions, replayTranscript } from './replay.js';
import { type Transcript, parseTranscript } from './transcript.js';

export interface ParityReport {
  /** How many lines of each type the transcript holds. */
  lines: Record<string, number>;
  findings: Finding[];
  counts: Record<Tier, number>;
  /** False when any finding is an `error`: the only tier that fails a run. */
  passed: boolean;
}

export interface ParityDiffOptions extends ReplayOptions {
  /** A rules file's text or object (normalisers, ignores, time tolerance, tiers). */
  rules?: string | ParityRulesInput;
}

/**
 * Replays `transcript` (its text or its parsed form) into a fresh emulator and reports every difference.
 *
 * @example
 * const report = await parityDiff(readFileSync('session.jsonl', 'utf8'));
 * expect(report.counts.error).toBe(0);
 */
export async function parityDiff(
  transcript: string | Transcript,
  options: ParityDiffOptions = {},
): Promise<ParityReport> {
  const rules = parityRules(options.rules);
  const parsed = typeof transcript === 'string' ? parseTranscript(transcript) : transcript;
  const replayed = await replayTranscript(parsed, options);
  const findings = compareTranscript(parsed, replayed, rules);
  const counts: Record<Tier, number> = { info: 0, warn: 0, error: 0 };
  for (const finding of findings) counts[finding.tier] += 1;
  const lines: Record<string, number> = {};
  for (const event of parsed.events) lines[event.type] = (lines[event.type] ?? 0) + 1;
  return { lines, findings, counts, passed: counts.error === 0 };
}

/** The report as a table for a terminal: tier, line, kind and message, then the verdict. */
export function parityReportText(report: ParityReport, name = 'transcript'): string {
  const rows = report.findings.map(
    (finding) =>
      `${finding.tier.padEnd(5)}  ${String(finding.line).padStart(5)}  ${finding.kind.padEnd(18)}  ${finding.message}`,
  );
  const summary = Object.entries(report.lines)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ');
  const verdict = `${report.counts.error} error, ${report.counts.warn} warn, ${report.counts.info} info: ${report.passed ? 'passed' : 'FAILED'}`;
  return `parity diff ${name} (${summary})\n${rows.length === 0 ? 'no differences\n' : `tier    line  kind                message\n${rows.join('\n')}\n`}${verdict}\n`;
}

function xml(text: string): string {
  return (
    text
      .replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
      // XML 1.0 has no way to write most control characters, even escaped: they are dropped.
      .replace(/[^\t\n\r\u0020-\u{10ffff}]/gu, '')
  );
}

/** JUnit XML for CI: one test case per finding (an error fails it), or one passing case when nothing differs. */
export function parityReportJunit(report: ParityReport, name = 'transcript'): string {
  const cases = report.findings.map((finding) => {
    const title = `line ${finding.line} ${finding.kind} ${finding.field}`;
    const body =
      finding.tier === 'error'
        ? `<failure type="${finding.kind}" message="${xml(finding.message)}">${xml(finding.message)}</failure>`
        : `<system-out>${xml(`${finding.tier}: ${finding.message}`)}</system-out>`;
    return `    <testcase classname="parity.${xml(name)}" name="${xml(title)}">${body}</testcase>`;
  });
  if (cases.length === 0) cases.push(`    <testcase classname="parity.${xml(name)}" name="no differences"></testcase>`);
  const tests = Math.max(1, report.findings.length);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="sms-emulator parity" tests="${tests}" failures="${report.counts.error}">
  <testsuite name="parity diff ${xml(name)}" tests="${tests}" failures="${report.counts.error}" errors="0" skipped="0">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
