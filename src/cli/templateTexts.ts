/** The message texts of a template or translation file (plain text, JSON, YAML, gettext .po, Java .properties), each with its key and line, for `sms-emulator lint`. */

import { lazyPackage } from '../lazyPackage.js';

/** One text of a file: where it stands and, for a map, its key (`welcome.sms`). */
export interface TemplateText {
  text: string;
  line: number;
  key?: string;
}

/** A file's texts and the lint settings it declares for itself (`# sms-emulator-lint: placeholder-length=20`). */
export interface TemplateFile {
  texts: TemplateText[];
  settings: Record<string, string>;
}

/** A file that cannot be read as its format: the message names the line. */
export class TemplateFileError extends Error {}

/** The formats, by file name ending. */
export const templateFormats = {
  txt: ['.txt', '.text', '.sms'],
  json: ['.json'],
  yaml: ['.yaml', '.yml'],
  po: ['.po', '.pot'],
  properties: ['.properties'],
} as const;
export type TemplateFormat = keyof typeof templateFormats;

/** The format of a file by its name, or undefined when lint does not read it. */
export function templateFormatOf(path: string): TemplateFormat | undefined {
  const lower = path.toLowerCase();
  return (Object.keys(templateFormats) as TemplateFormat[]).find((format) =>
    templateFormats[format].some((ending) => lower.endsWith(ending)),
  );
}

const directive = /^\s*(?:#|!|\/\/)\s*sms-emulator-lint:\s*(.*)$/;

/** `placeholder-length=20, max-segments=2` from a comment line, the per-file settings. */
function settingsOf(lines: readonly string[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of lines) {
    const found = directive.exec(line);
    if (found === null) continue;
    for (const part of (found[1] ?? '').split(/[,\s]+/).filter((word) => word !== '')) {
      const [name, value] = part.split('=');
      if (name === undefined || value === undefined || value === '')
        throw new TemplateFileError(`the sms-emulator-lint comment's "${part}" is not name=value`);
      settings[name] = value;
    }
  }
  return settings;
}

/** Plain text: one message per line; blank lines and the directive comment are skipped. */
function plainTexts(lines: readonly string[]): TemplateText[] {
  return lines.flatMap((text, index) =>
    text.trim() === '' || directive.test(text) ? [] : [{ text: text.replace(/\r$/, ''), line: index + 1 }],
  );
}

/**
 * JSON or YAML: every string of a map or list, keyed by its path (`welcome.sms`, `reminders.0`), in every document of
 * a YAML stream (`---` between them).
 */
function treeTexts(content: string): TemplateText[] {
  const { LineCounter, parseAllDocuments, isMap, isSeq, isScalar } = lazyPackage('yaml');
  const lines = new LineCounter();
  const parsed = parseAllDocuments(content, { lineCounter: lines, uniqueKeys: false });
  const documents = Array.isArray(parsed) ? parsed : [];
  const [problem] = documents.flatMap((document) => document.errors);
  if (problem !== undefined)
    throw new TemplateFileError(`line ${lines.linePos(problem.pos[0]).line}: ${problem.message.split('\n')[0]}`);
  const texts: TemplateText[] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (isMap(node) || isSeq(node))
      node.items.forEach((item, index) => {
        if (isMap(node)) {
          const pair = item as { key: unknown; value: unknown };
          const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
          walk(pair.value, [...path, key]);
        } else walk(item, [...path, String(index)]);
      });
    else if (isScalar(node) && typeof node.value === 'string') {
      const line = lines.linePos(node.range?.[0] ?? 0).line;
      texts.push({ text: node.value, line, ...(path.length === 0 ? {} : { key: path.join('.') }) });
    }
  };
  for (const document of documents) walk(document.contents, []);
  return texts;
}

/** YAML reads JSON too, but kindly (`"b": }` is a null): a .json file must be JSON itself. */
function strictJson(content: string): void {
  try {
    JSON.parse(content);
  } catch (error) {
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    const line = position === undefined ? '' : `line ${content.slice(0, Number(position)).split('\n').length}: `;
    throw new TemplateFileError(`${line}not JSON (${(error as Error).message})`);
  }
}

/** C's one-letter escapes, as gettext reads them. */
const poEscapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };

/**
 * A C-style quoted string of a .po file, without its quotes. Its escapes are bytes, as msgfmt reads them: an octal
 * (`\342\200\231`) or hex escape of each UTF-8 byte spells a curly apostrophe as surely as the character itself.
 */
function poString(quoted: string, line: number): string {
  const body = /^"((?:[^"\\]|\\.)*)"$/.exec(quoted)?.[1];
  if (body === undefined) throw new TemplateFileError(`line ${line}: expected a quoted string, found ${quoted}`);
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const text = (chars: string): void => {
    for (const byte of encoder.encode(chars)) bytes.push(byte);
  };
  // `\"`, `\\`, `\'`, `\?` (and any other escaped character) stand for the character itself.
  for (const [, plain, octal, hex, escaped] of body.matchAll(/([^\\]+)|\\([0-7]{1,3})|\\x([0-9a-fA-F]{1,2})|\\(.)/gu))
    if (plain !== undefined) text(plain);
    else if (octal !== undefined) bytes.push(parseInt(octal, 8) & 0xff);
    else if (hex !== undefined) bytes.push(parseInt(hex, 16));
    else if (escaped !== undefined && poEscapes[escaped] !== undefined) bytes.push(poEscapes[escaped]);
    else text(escaped ?? '');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    throw new TemplateFileError(`line ${line}: its escaped bytes are not UTF-8: ${quoted.slice(0, 60)}`);
  }
}

/** gettext: each translation (`msgstr`, `msgstr[n]`) keyed by its `msgid`; a template (.pot) gives its `msgid`s. */
function poTexts(lines: readonly string[], template: boolean): TemplateText[] {
  const texts: TemplateText[] = [];
  let entry: { field: string; line: number; parts: string[] } | undefined;
  let msgid = '';
  let context: string | undefined;
  const close = (): void => {
    if (entry === undefined) return;
    const value = entry.parts.join('');
    if (entry.field === 'msgctxt') context = value;
    else if (entry.field === 'msgid') msgid = value;
    // A template's source texts are its msgid and msgid_plural; the translation of msgid "" is the header, not a text.
    const wanted = template
      ? entry.field.startsWith('msgid')
      : entry.field.startsWith('msgstr') && (msgid !== '' || context !== undefined);
    if (wanted && value !== '') {
      const key = context === undefined ? msgid : `${context}|${msgid}`;
      texts.push({ text: value, line: entry.line, ...(key === '' ? {} : { key }) });
    }
    if (entry.field.startsWith('msgstr')) context = undefined;
    entry = undefined;
  };
  lines.forEach((raw, index) => {
    const text = raw.trim();
    const line = index + 1;
    if (text === '' || text.startsWith('#')) return close();
    const field = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$/.exec(text);
    if (field !== null) {
      close();
      entry = { field: field[1] as string, line, parts: [poString(field[2] as string, line)] };
    } else if (text.startsWith('"') && entry !== undefined) entry.parts.push(poString(text, line));
    else throw new TemplateFileError(`line ${line}: not a gettext line: ${text.slice(0, 60)}`);
  });
  close();
  return texts;
}

/** A .properties escape: `\uXXXX`, `\t`, `\n`, or the character itself. */
function unescapeProperties(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) =>
    escape.length === 5
      ? String.fromCharCode(parseInt(escape.slice(1), 16))
      : (({ t: '\t', n: '\n', r: '\r', f: '\f' } as Record<string, string>)[escape] ?? escape),
  );
}

/** Java .properties: every value keyed by its key; a line ending in an odd backslash goes on. */
function propertiesTexts(lines: readonly string[]): TemplateText[] {
  const texts: TemplateText[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const start = index + 1;
    let logical = (lines[index] ?? '').replace(/^\s+/, '');
    if (logical === '' || logical.startsWith('#') || logical.startsWith('!')) continue;
    while (/(?:^|[^\\])(?:\\\\)*\\$/.test(logical) && index + 1 < lines.length) {
      index += 1;
      logical = logical.slice(0, -1) + (lines[index] ?? '').replace(/^\s+/, '');
    }
    const split = /^((?:[^\\:=\s]|\\.)*)\s*[:=\s]\s*(.*)$/s.exec(logical);
    const key = unescapeProperties(split?.[1] ?? logical);
    const value = unescapeProperties(split?.[2] ?? '');
    if (value !== '') texts.push({ text: value, line: start, key });
  }
  return texts;
}

/**
 * A file's bytes as text: UTF-8, a leading byte order mark dropped (Windows editors write one, and it is no character
 * of the first text). A binary file or one saved in another encoding is refused: read anyway, a Windows-1252 curly
 * apostrophe would be a replacement character, UCS-2 with no GSM-7 equivalent, which lint lets pass as on purpose.
 */
export function templateContent(bytes: Uint8Array): string {
  const zero = bytes.indexOf(0);
  if (zero !== -1) throw new TemplateFileError(`line ${lineAt(bytes, zero)}: a NUL byte: a binary file, not text`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lossy = new TextDecoder('utf-8').decode(bytes);
    const line = lossy.slice(0, lossy.indexOf('\uFFFD')).split('\n').length;
    throw new TemplateFileError(
      `line ${line}: not UTF-8 text (a binary file, or one saved as Windows-1252 or Latin-1: save it as UTF-8)`,
    );
  }
}

function lineAt(bytes: Uint8Array, offset: number): number {
  return bytes.subarray(0, offset).filter((byte) => byte === 10).length + 1;
}

/** The texts of one file's content in `format`, and its own settings. */
export function templateTexts(content: string, format: TemplateFormat, template = false): TemplateFile {
  const lines = content.split('\n').map((line) => line.replace(/\r$/, ''));
  const settings = format === 'json' ? {} : settingsOf(lines);
  switch (format) {
    case 'txt':
      return { texts: plainTexts(lines), settings };
    case 'json':
      strictJson(content);
      return { texts: treeTexts(content), settings };
    case 'yaml':
      return { texts: treeTexts(content), settings };
    case 'po':
      return { texts: poTexts(lines, template), settings };
    case 'properties':
      return { texts: propertiesTexts(lines), settings };
  }
}
