/** `sms-emulator lint <files, folders or globs>`: finds the template texts that leave GSM-7 or go past a segment budget, before they ship. */

import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { type TemplateFinding, type TemplateRules, templateFindings } from '../domain/templateFindings.js';
import { type CommandLine, UsageError, takeSwitch, takeText } from './commandLine.js';
import { escapeHtml } from '../ui/escapeHtml.js';
import type { CommandResult } from './commandResult.js';
import {
  TemplateFileError,
  templateContent,
  templateFormatOf,
  templateFormats,
  templateTexts,
} from './templateTexts.js';

/** A placeholder counts as this many GSM-7 characters unless the team says otherwise. */
const defaultPlaceholderLength = 10;

export function lintHelp(): string {
  const endings = Object.values(templateFormats).flat().join(' ');
  return `Usage: sms-emulator lint <files, folders or globs…> [--max-segments <n>] [--gsm7-only] [--placeholder-length <n>] [--json | --junit]

Checks template and translation files before they ship: each text that leaves GSM-7 because of a character a team
usually did not mean (a curly apostrophe, an en dash, a no-break space, a decomposed é), and with --max-segments each
text past its segment budget, naming the file, the line, the key, the character, its position, the fix and the
credits per recipient it saves. Exit status 0 when every text is fine, 1 on a finding, 2 for a command line mistake
or a file that cannot be read.

Files (${endings}): plain text is one message per line; JSON and YAML give every string of their map, keyed by its
path; .po gives each msgstr keyed by its msgid, not the header (.pot its msgids); .properties each value keyed by its
key. Files are UTF-8. A folder is searched for those files, links followed; a glob (src/**/*.json) is matched here,
so quote it.

  --max-segments <n>        a text of more segments than n is a finding
  --gsm7-only               every text must stay GSM-7: a character with no GSM-7 equivalent is a finding too
  --placeholder-length <n>  {name}, {{code}}, \${x}, %s, %1$s, %(name)s count as n GSM-7 characters (default ${defaultPlaceholderLength})
  --json                    print the findings as JSON
  --junit                   print a JUnit XML report (one test case per text)

A file sets its own with a comment line (not in JSON): # sms-emulator-lint: placeholder-length=20 max-segments=2
`;
}

/** Folders never searched. */
const skipped = new Set(['node_modules', '.git', 'dist', 'target', 'vendor']);

/**
 * The template files under a folder, in name order. A symbolic link is followed (a shared translations folder is often
 * linked in), each real folder once, so a link back up the tree ends the walk instead of looping; a broken one is skipped.
 */
function walk(folder: string, seen = new Set<string>()): string[] {
  const real = realpathSync(folder);
  if (seen.has(real)) return [];
  seen.add(real);
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      if (skipped.has(entry.name)) return [];
      const path = join(folder, entry.name);
      let kind: { isDirectory(): boolean; isFile(): boolean } = entry;
      if (entry.isSymbolicLink()) {
        try {
          kind = statSync(path);
        } catch {
          return [];
        }
      }
      if (kind.isDirectory()) return walk(path, seen);
      return kind.isFile() && templateFormatOf(path) !== undefined ? [path] : [];
    });
}

/** `**` any folders, `*` any name part, `?` one character. */
function globPattern(glob: string): RegExp {
  const parts = glob.split('/');
  const body = parts
    .map((part, index) => {
      const last = index === parts.length - 1;
      if (part === '**') return last ? '.*' : '(?:[^/]+/)*';
      const name = part
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]');
      return last ? name : `${name}/`;
    })
    .join('');
  return new RegExp(`^${body}$`);
}

/** The files one argument names: a file, every template file in a folder, or the files a glob matches. */
function filesOf(argument: string): string[] {
  if (/[*?]/.test(argument)) {
    const parts = argument.split('/');
    const first = parts.findIndex((part) => /[*?]/.test(part));
    const base = parts.slice(0, first).join('/') || '.';
    const pattern = globPattern(argument.startsWith('./') ? argument.slice(2) : argument);
    let candidates: string[] = [];
    try {
      candidates = walk(base);
    } catch {
      candidates = [];
    }
    return candidates.filter((path) => pattern.test(path.split(sep).join('/')));
  }
  let stat;
  try {
    stat = statSync(argument);
  } catch {
    throw new UsageError(`${argument}: no such file or folder`);
  }
  if (stat.isDirectory()) return walk(argument);
  if (templateFormatOf(argument) === undefined)
    throw new UsageError(
      `${argument}: lint reads ${Object.values(templateFormats).flat().join(', ')} files; this one has none of those endings`,
    );
  return [argument];
}

/** The counted settings, on the command line and in a file's comment: each a whole number from its minimum to 1000. */
const minimums = { 'max-segments': 1, 'placeholder-length': 0 } as const;
type Counted = keyof typeof minimums;

function wholeNumber(name: Counted, text: string): number | undefined {
  return /^\d+$/.test(text) && Number(text) >= minimums[name] && Number(text) <= 1000 ? Number(text) : undefined;
}

function rangeOf(name: Counted): string {
  return `a whole number from ${minimums[name]} to 1000`;
}

function count(line: CommandLine, flag: Counted): number | undefined {
  const text = takeText(line, flag);
  if (text === undefined) return undefined;
  const number = wholeNumber(flag, text);
  if (number === undefined) throw new UsageError(`--${flag} takes ${rangeOf(flag)}, not "${text}"`);
  return number;
}

/** A file's own settings over the command line's. */
function fileRules(base: TemplateRules, settings: Record<string, string>, file: string): TemplateRules {
  const rules = { ...base };
  for (const [name, value] of Object.entries(settings)) {
    const comment = `${file}: the sms-emulator-lint comment's ${name}=${value}`;
    if (name === 'placeholder-length' || name === 'max-segments') {
      const number = wholeNumber(name, value);
      if (number === undefined) throw new TemplateFileError(`${comment}: ${name} takes ${rangeOf(name)}`);
      if (name === 'placeholder-length') rules.placeholderLength = number;
      else rules.maxSegments = number;
    } else if (name === 'gsm7-only') {
      if (value !== 'true' && value !== 'false')
        throw new TemplateFileError(`${comment}: gsm7-only takes true or false`);
      rules.gsm7Only = value === 'true';
    } else throw new TemplateFileError(`${comment} is not a setting lint takes`);
  }
  return rules;
}

/** One finding with where it stands. */
export interface LintFinding extends TemplateFinding {
  file: string;
  line: number;
  key?: string;
}

interface LintReport {
  files: number;
  texts: number;
  findings: LintFinding[];
  /** Per file, per text: its findings, for the JUnit report. */
  cases: { file: string; line: number; key?: string; findings: LintFinding[] }[];
}

function findingText(finding: LintFinding): string {
  const where = `${finding.file}:${finding.line}${finding.key === undefined ? '' : ` ${finding.key}`}`;
  if (finding.kind === 'segments') return `${where}: ${finding.fix}`;
  const name = finding.name === null || finding.name === undefined ? '' : ` ${finding.name}`;
  return `${where} (position ${finding.position}): ${JSON.stringify(finding.char)} ${finding.codePoint}${name} makes the text UCS-2 (${finding.segments} segment${finding.segments === 1 ? '' : 's'}); ${finding.fix}`;
}

/**
 * Text as XML 1.0 takes it: escaped, and each control character XML forbids (a `.properties` key can hold one through
 * `\u0007`) written as `\u0007`, or a CI's JUnit reader refuses the whole report.
 */
function xmlText(text: string): string {
  return escapeHtml(text).replace(
    // eslint-disable-next-line no-control-regex -- control characters are what it finds
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

function junit(report: LintReport): string {
  const byFile = new Map<string, LintReport['cases']>();
  // Pushed, not copied: a copy per text made a file of 80,000 lines take 80 s.
  for (const entry of report.cases) {
    const cases = byFile.get(entry.file);
    if (cases === undefined) byFile.set(entry.file, [entry]);
    else cases.push(entry);
  }
  const suites = [...byFile].map(([file, cases]) => {
    const failures = cases.filter((entry) => entry.findings.length > 0).length;
    const testcases = cases.map((entry) => {
      const name = xmlText(entry.key ?? `line ${entry.line}`);
      if (entry.findings.length === 0) return `    <testcase classname="${xmlText(file)}" name="${name}"/>`;
      const text = entry.findings.map(findingText).join('\n');
      return `    <testcase classname="${xmlText(file)}" name="${name}">\n      <failure message="${xmlText(entry.findings[0]?.fix ?? '')}">${xmlText(text)}</failure>\n    </testcase>`;
    });
    return `  <testsuite name="${xmlText(file)}" tests="${cases.length}" failures="${failures}">\n${testcases.join('\n')}\n  </testsuite>`;
  });
  const failures = report.cases.filter((entry) => entry.findings.length > 0).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="sms-emulator lint" tests="${report.cases.length}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`;
}

export function lintCommand(line: CommandLine): CommandResult {
  if (line.help) return { stdout: lintHelp(), stderr: '', exitCode: 0 };
  try {
    return lint(line);
  } catch (error) {
    if (!(error instanceof TemplateFileError)) throw error;
    return { stdout: '', stderr: `sms-emulator: lint: ${error.message}\n`, exitCode: 2 };
  }
}

function lint(line: CommandLine): CommandResult {
  const maxSegments = count(line, 'max-segments');
  const placeholderLength = count(line, 'placeholder-length') ?? defaultPlaceholderLength;
  const gsm7Only = takeSwitch(line, 'gsm7-only');
  const json = takeSwitch(line, 'json');
  const xmlReport = takeSwitch(line, 'junit');
  const [unknown] = line.flags.keys();
  if (unknown !== undefined) throw new UsageError(`unknown flag --${unknown} for lint`);
  if (json && xmlReport) throw new UsageError('give --json or --junit, not both');
  if (line.positionals.length === 0) throw new UsageError('lint needs <files, folders or globs…>');
  const base: TemplateRules = { placeholderLength, gsm7Only, ...(maxSegments === undefined ? {} : { maxSegments }) };
  const files = [
    ...new Set(
      line.positionals.flatMap((argument) => {
        const found = filesOf(argument);
        if (found.length === 0) throw new UsageError(`${argument}: no template file matches it`);
        return found;
      }),
    ),
  ];
  const report: LintReport = { files: files.length, texts: 0, findings: [], cases: [] };
  for (const file of files) {
    const format = templateFormatOf(file);
    if (format === undefined) continue;
    let parsed;
    try {
      parsed = templateTexts(templateContent(readFileSync(file)), format, file.toLowerCase().endsWith('.pot'));
    } catch (error) {
      const reason = error instanceof TemplateFileError ? error.message : (error as Error).message;
      throw new TemplateFileError(`${file}: cannot be read as ${format}: ${reason}`);
    }
    const rules = fileRules(base, parsed.settings, file);
    for (const text of parsed.texts) {
      report.texts += 1;
      const where = { file, line: text.line, ...(text.key === undefined ? {} : { key: text.key }) };
      // Object.assign, not a spread: spreading 100,000 findings of one text took seconds.
      const findings = templateFindings(text.text, rules).map((finding): LintFinding =>
        Object.assign({}, where, finding),
      );
      // One by one: a long text of curly quotes has more findings than a call takes arguments.
      for (const finding of findings) report.findings.push(finding);
      report.cases.push({ ...where, findings });
    }
  }
  const exitCode = report.findings.length === 0 ? 0 : 1;
  if (json) {
    const { cases: _cases, ...shown } = report;
    return { stdout: `${JSON.stringify(shown, null, 2)}\n`, stderr: '', exitCode };
  }
  if (xmlReport) return { stdout: junit(report), stderr: '', exitCode };
  const verdict =
    exitCode === 0
      ? `${report.texts} text${report.texts === 1 ? '' : 's'} in ${report.files} file${report.files === 1 ? '' : 's'}: every one GSM-7${maxSegments === undefined ? '' : ` and within ${maxSegments} segment${maxSegments === 1 ? '' : 's'}`}`
      : `${report.findings.length} finding${report.findings.length === 1 ? '' : 's'} in ${report.texts} text${report.texts === 1 ? '' : 's'} of ${report.files} file${report.files === 1 ? '' : 's'}`;
  return { stdout: `${[...report.findings.map(findingText), verdict].join('\n')}\n`, stderr: '', exitCode };
}
