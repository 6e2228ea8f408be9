/** `parityDiff`: replays a transcript into a fresh emulator and compares, with the verdict in tiers. */

import type { Finding } from './groupFindings.js';
import { compareTranscript } from './compareTranscript.js';
import { openApiFindings } from './openApiFindings.js';
import { type FindingKind, type ParityRules, type ParityRulesInput, type Tier, parityRules } from './parityRules.js';
import { type ReplayOptions, replayTranscript } from './replay.js';
import { type Transcript, parseTranscript } from './transcript.js';

export interface ParityReport {
  /** How many lines of each type the transcript holds. */
  lines: Record<string, number>;
  findings: Finding[];
  /** The findings of each tier, waived ones left out. */
  counts: Record<Tier, number>;
  /** How many findings the rules' waivers cover (listed, with their reasons, never failing a run). */
  waived: number;
  /**
   * Waivers that covered no finding (the provider fixed it, or the transcript was recorded again and its lines moved):
   * listed so a waiver does not outlive its difference, never failing a run.
   */
  unusedWaivers: { kind: FindingKind; lines: number[]; reason: string }[];
  /** False when any finding is an `error`: the only tier that fails a run. */
  passed: boolean;
}

export interface ParityDiffOptions extends ReplayOptions {
  /** A rules file's text or object (normalisers, ignores, time tolerance, tiers). */
  rules?: string | ParityRulesInput;
  /**
   * An OpenAPI document (3.0 or 3.1, parsed): each recorded answer and webhook is also validated against it, each
   * violation a `schema-violation` finding. The emulator's own is served at `/_emulator/openapi.json`.
   */
  openapi?: unknown;
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
  const checked = options.openapi === undefined ? [] : await openApiFindings(parsed, options.openapi);
  const findings = compareTranscript(parsed, replayed, rules, checked);
  return parityReport(parsed, findings, rules);
}

/** The report of a comparison's findings: lines of each type, findings counted per tier (waived apart), the verdict. */
export function parityReport(transcript: Transcript, findings: Finding[], rules?: ParityRules): ParityReport {
  const counts: Record<Tier, number> = { info: 0, warn: 0, error: 0 };
  let waived = 0;
  for (const finding of findings) {
    if (finding.waived === undefined) counts[finding.tier] += 1;
    else waived += 1;
  }
  const lines: Record<string, number> = {};
  for (const event of transcript.events) lines[event.type] = (lines[event.type] ?? 0) + 1;
  const unusedWaivers = (rules?.waive ?? [])
    .filter(
      (rule) =>
        !findings.some(
          (finding) =>
            finding.waived === rule.reason &&
            finding.kind === rule.kind &&
            finding.lines.some((line) => rule.lines.has(line)),
        ),
    )
    .map(({ kind, lines: waivedLines, reason }) => ({ kind, lines: [...waivedLines], reason }));
  return { lines, findings, counts, waived, unusedWaivers, passed: counts.error === 0 };
}

/** A finding's tier as the reports show it: `waived` when the rules waive it. */
export const shownTier = (finding: Finding): string => (finding.waived === undefined ? finding.tier : 'waived');

/** The report as a table for a terminal: tier, line, kind and message, then the verdict. */
export function parityReportText(report: ParityReport, name = 'transcript'): string {
  const rows = report.findings.map(
    (finding) =>
      `${shownTier(finding).padEnd(6)}  ${String(finding.line).padStart(5)}  ${finding.kind.padEnd(18)}  ${finding.message}`,
  );
  const summary = Object.entries(report.lines)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ');
  const unused = report.unusedWaivers.map(
    (rule) =>
      `a waiver covers no finding: ${rule.kind} on line${rule.lines.length === 1 ? '' : 's'} ${rule.lines.join(', ')} (${rule.reason}); remove it, or give the lines the finding is on now\n`,
  );
  return `parity diff ${name} (${summary})\n${rows.length === 0 ? 'no differences\n' : `tier     line  kind                message\n${rows.join('\n')}\n`}${unused.join('')}${parityCounts(report)}: ${report.passed ? 'passed' : 'FAILED'}\n`;
}

/** `1 error, 0 warn, 2 info, 1 waived` (the waived count only when the rules waived a finding). */
export function parityCounts(report: ParityReport): string {
  const waived = report.waived > 0 ? `, ${report.waived} waived` : '';
  return `${report.counts.error} error, ${report.counts.warn} warn, ${report.counts.info} info${waived}`;
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
      finding.tier === 'error' && finding.waived === undefined
        ? `<failure type="${finding.kind}" message="${xml(finding.message)}">${xml(finding.message)}</failure>`
        : `<system-out>${xml(`${shownTier(finding)}: ${finding.message}`)}</system-out>`;
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
