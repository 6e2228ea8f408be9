/** `sms-emulator lint`: template and translation files checked for texts that leave GSM-7 or pass a segment budget. */

import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCommand } from '../../src/cli/runCommand.js';

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sms-lint-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const lint = (...args: string[]) => runCommand(['lint', ...args], {});

/** 1,000 GSM-7 texts of one to three segments, different enough to be a translator's corpus. */
function corpus(): string[] {
  return Array.from(
    { length: 1000 },
    (_, n) =>
      `Order ${n}: your parcel ${'is on its way, '.repeat(n % 20)}track it at https://example.test/t/${n} [ref ${n % 7}] €${n}`,
  );
}

test('a 1,000-text GSM-7 corpus with a curly apostrophe, an en dash and a decomposed é planted reports exactly those three, and the corpus alone passes', async () => {
  const texts = corpus();
  const clean = folder({ 'en.txt': `${texts.join('\n')}\n` });
  const passed = await lint(clean);
  expect(passed.exitCode).toBe(0);
  expect(passed.stdout).toBe('1000 texts in 1 file: every one GSM-7\n');

  const planted = [...texts];
  planted[10] = 'Your parcel’s here';
  planted[500] = 'Open 9–5 today';
  planted[998] = 'Cafe\u0301 order ready';
  const dirty = folder({ 'en.txt': `${planted.join('\n')}\n` });
  const result = await lint(dirty, '--json');
  expect(result.exitCode).toBe(1);
  const report = JSON.parse(result.stdout) as { texts: number; findings: Record<string, unknown>[] };
  expect(report.texts).toBe(1000);
  expect(report.findings.map((f) => [f.line, f.position, f.char, f.codePoint, f.suggestion, f.creditDelta])).toEqual([
    [11, 12, '’', 'U+2019', "'", 0],
    [501, 7, '–', 'U+2013', '-', 0],
    [999, 5, '\u0301', 'U+0301', 'é', 0],
  ]);
  const text = await lint(dirty);
  expect(text.stdout).toContain(`${join(dirty, 'en.txt')}:11 (position 12): "’" U+2019 RIGHT SINGLE QUOTATION MARK`);
  expect(text.stdout).toMatch(/3 findings in 1000 texts of 1 file\n$/);
});

test('the credit delta names what the fix saves when the trap costs segments', async () => {
  const root = folder({ 'a.txt': `It’s ${'x'.repeat(100)}\n` });
  const result = await lint(root, '--json');
  const [finding] = (JSON.parse(result.stdout) as { findings: Record<string, unknown>[] }).findings;
  expect(finding).toMatchObject({ segments: 2, fixedSegments: 1, creditDelta: 1 });
  expect(finding?.fix).toBe('replace U+2019 with "\'": 2 → 1 segments, 1 credit less per recipient');
});

test('JSON and YAML maps give every string keyed by its path and line; .po its msgstr keyed by msgid; .properties its values', async () => {
  const root = folder({
    'l/en.json':
      '{\n  "welcome": {\n    "sms": "Hi {name}",\n    "late": "We’re late"\n  },\n  "list": ["ok", "Fine – ok"]\n}\n',
    'l/en.yaml': 'reminder:\n  day: "See you tomorrow…"\n',
    'de.po':
      'msgctxt "sms"\nmsgid "Hello"\nmsgstr ""\n"Hallo "\n"– Welt"\n\nmsgid "One"\nmsgid_plural "Many"\nmsgstr[0] "Eins"\nmsgstr[1] "Viele’"\n',
    'm.properties': '# comment\nbye=Tsch\\u00fc\\u00df \\\n    \\u2019bye\n',
  });
  const result = await lint(root, '--json');
  const findings = (JSON.parse(result.stdout) as { findings: Record<string, unknown>[] }).findings;
  expect(findings.map((f) => [String(f.file).slice(root.length + 1), f.line, f.key, f.char])).toEqual([
    ['de.po', 3, 'sms|Hello', '–'],
    ['de.po', 10, 'One', '’'],
    ['l/en.json', 4, 'welcome.late', '’'],
    ['l/en.json', 6, 'list.1', '–'],
    ['l/en.yaml', 2, 'reminder.day', '…'],
    ['m.properties', 2, 'bye', '’'],
  ]);
});

test('placeholders count as the declared worst case, from the flag or a comment in the file', async () => {
  const root = folder({ 'a.txt': 'Hi {name}, your code is {{code}} (%s, %1$s, ${x})\n' });
  expect((await lint(root, '--max-segments', '1')).exitCode).toBe(0);
  const over = await lint(root, '--max-segments', '1', '--placeholder-length', '40');
  expect(over.exitCode).toBe(1);
  expect(over.stdout).toMatch(/2 segments \(GSM-7, \d+ units with placeholders at 40\) is over the budget of 1/);
  const declared = folder({
    'a.txt': '# sms-emulator-lint: placeholder-length=40 max-segments=1\nHi {name} {name} {name} {name} {name}\n',
  });
  expect((await lint(declared)).stdout).toContain('is over the budget of 1');
});

test('a text in another script is UCS-2 on purpose and passes, unless --gsm7-only says every text must stay GSM-7', async () => {
  const root = folder({ 'ru.txt': 'Привет, ваш код 1234\n' });
  expect((await lint(root)).exitCode).toBe(0);
  const strict = await lint(root, '--gsm7-only');
  expect(strict.exitCode).toBe(1);
  expect(strict.stdout).toContain('U+041F has no GSM-7 equivalent');
});

test('--junit prints one test case per text, failing the ones with findings', async () => {
  const root = folder({ 'a.txt': 'fine\nnot’fine\n' });
  const result = await lint(root, '--junit');
  expect(result.exitCode).toBe(1);
  expect(result.stdout).toContain('<testsuites name="sms-emulator lint" tests="2" failures="1">');
  expect(result.stdout).toMatch(
    /<testcase classname="[^"]+a\.txt" name="line 2">\n\s+<failure message="replace U\+2019/,
  );
});

test('globs are matched by lint itself, and a glob, file or folder that names nothing is a usage error', async () => {
  const root = folder({ 'a/b/en.json': '{"x": "ok’"}', 'a/c.yaml': 'x: ok' });
  const matched = await lint(`${root}/a/**/*.json`, '--json');
  expect((JSON.parse(matched.stdout) as { files: number }).files).toBe(1);
  for (const args of [
    [`${root}/none/*.json`],
    [join(root, 'missing.txt')],
    [join(root, 'a/c.yaml'), '--max-segments', '0'],
    [],
  ]) {
    const result = await lint(...args);
    expect(result.exitCode, args.join(' ')).toBe(2);
    expect(result.stderr).toMatch(/^sms-emulator: .+\nRun sms-emulator lint --help for its arguments\.\n$/);
  }
});

test('a file that cannot be read as its format is named with its line, exit status 2, nothing else reported', async () => {
  for (const [name, content, expected] of [
    ['bad.json', '{\n  "a": "x",\n  "b": \n}', /bad\.json: cannot be read as json: (line 4: )?not JSON/],
    ['bad.po', 'msgid "a"\nmsgstr "b"\nnonsense\n', /bad\.po: cannot be read as po: line 3: not a gettext line/],
    [
      'bad.txt',
      '# sms-emulator-lint: colour=blue\nhi\n',
      /bad\.txt: the sms-emulator-lint comment's colour=blue is not a setting/,
    ],
  ] as const) {
    const result = await lint(join(folder({ [name]: content }), name));
    expect(result.exitCode, name).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(expected);
  }
});

test('a byte order mark is no character of the first text, and a binary file or one saved as Windows-1252 is refused naming its line', async () => {
  const bom = '\uFEFF';
  const root = folder({
    'a.txt': `${bom}Hello there\n`,
    'b.json': `${bom}{"a": "Hello"}`,
    'c.po': `${bom}msgid "a"\nmsgstr "b"\n`,
  });
  const clean = await lint(root);
  expect(clean.stdout).toBe('3 texts in 3 files: every one GSM-7\n');
  expect(clean.exitCode).toBe(0);
  const bytes = mkdtempSync(join(tmpdir(), 'sms-lint-'));
  writeFileSync(join(bytes, 'cp1252.txt'), Buffer.from([0x48, 0x69, 0x0a, 0x49, 0x74, 0x92, 0x73, 0x0a]));
  writeFileSync(join(bytes, 'binary.txt'), Buffer.from([0x4f, 0x4b, 0x0a, 0x0a, 0x00, 0x01, 0x02]));
  for (const [name, expected] of [
    ['cp1252.txt', /cp1252\.txt: cannot be read as txt: line 2: not UTF-8 text/],
    ['binary.txt', /binary\.txt: cannot be read as txt: line 3: a NUL byte: a binary file/],
  ] as const) {
    const result = await lint(join(bytes, name));
    expect(result.exitCode, name).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(expected);
  }
});

test('the header of a .po file is no text, and a .pot gives its plural msgids too', async () => {
  const header = `msgid ""\nmsgstr ""\n"Last-Translator: Łukasz Nowak <l@example.test>\\n"\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n`;
  const root = folder({
    'pl.po': `${header}msgid "One"\nmsgstr "Jeden"\n`,
    'shop.pot': `${header}msgid "One item"\nmsgid_plural "%d items – many"\nmsgstr[0] ""\nmsgstr[1] ""\n`,
  });
  const result = await lint(root, '--max-segments', '1', '--json');
  const findings = (JSON.parse(result.stdout) as { findings: Record<string, unknown>[] }).findings;
  expect(findings.map((f) => [String(f.file).slice(root.length + 1), f.line, f.char])).toEqual([['shop.pot', 7, '–']]);
});

test('a percent sign in prose is no placeholder: "50% discount" and "100%% sure" count as written', async () => {
  const root = folder({ 'a.txt': `Get 50% discount on ${'a'.repeat(140)}\nGet 50%% sale${'a'.repeat(146)}\n` });
  const result = await lint(root, '--max-segments', '1');
  expect(result.stdout).toBe('2 texts in 1 file: every one GSM-7 and within 1 segment\n');
  expect(result.exitCode).toBe(0);
});

test('a trap beside a character with no GSM-7 equivalent says the text stays UCS-2, not that the fix makes it GSM-7', async () => {
  const root = folder({ 'a.txt': 'It’s party time 🎉\n' });
  const [finding] = (JSON.parse((await lint(root, '--json')).stdout) as { findings: Record<string, unknown>[] })
    .findings;
  expect(finding).toMatchObject({ char: '’', creditDelta: 0 });
  expect(finding?.fix).toBe('replace U+2019 with "\'" (the text stays UCS-2: U+1F389 has no GSM-7 equivalent)');
});

test('a text with more findings than a call takes arguments is reported, not a crash', async () => {
  const root = folder({ 'a.txt': `${'’'.repeat(140_000)}\n` });
  const result = await lint(root);
  expect(result.exitCode).toBe(1);
  expect(result.stdout).toMatch(/\n140000 findings in 1 text of 1 file\n$/);
});

test('a linked file or folder is read, and a link back up the tree ends the walk', async () => {
  const root = folder({ 'shared/en.txt': 'It’s here\n', 'app/own.txt': 'fine\n' });
  symlinkSync(join(root, 'shared'), join(root, 'app', 'shared'));
  symlinkSync(join(root, 'shared', 'en.txt'), join(root, 'app', 'linked.txt'));
  symlinkSync(join(root, 'app'), join(root, 'app', 'loop'));
  symlinkSync(join(root, 'gone.txt'), join(root, 'app', 'broken.txt'));
  const result = await lint(join(root, 'app'), '--json');
  const report = JSON.parse(result.stdout) as { files: number; findings: Record<string, unknown>[] };
  expect(report.files).toBe(3);
  expect(report.findings.map((f) => String(f.file).slice(root.length + 1))).toEqual([
    'app/linked.txt',
    'app/shared/en.txt',
  ]);
});

test("a file's own setting out of range names the range it takes", async () => {
  for (const [comment, expected] of [
    ['placeholder-length=99999', 'placeholder-length=99999: placeholder-length takes a whole number from 0 to 1000'],
    ['max-segments=0', 'max-segments=0: max-segments takes a whole number from 1 to 1000'],
    ['gsm7-only=yes', 'gsm7-only=yes: gsm7-only takes true or false'],
  ] as const) {
    const result = await lint(join(folder({ 'a.txt': `# sms-emulator-lint: ${comment}\nhi\n` }), 'a.txt'));
    expect(result.exitCode, comment).toBe(2);
    expect(result.stderr).toContain(expected);
  }
});

test('--junit writes a control character of a key as \\u0007, so the report stays XML a CI can read', async () => {
  const root = folder({ 'a.properties': 'k\\u0007ey=It\\u2019s\nok=fine\n' });
  const result = await lint(root, '--junit');
  expect(result.exitCode).toBe(1);
  expect(result.stdout).toContain('<testcase classname="');
  expect(result.stdout).toContain('name="k\\u0007ey">');
  expect([...result.stdout].filter((char) => char < ' ' && !'\t\n\r'.includes(char))).toEqual([]);
});

test('--junit reports a file of 100,000 texts, one test case each', async () => {
  const root = folder({ 'a.txt': Array.from({ length: 100_000 }, (_, n) => `Order ${n} is ready`).join('\n') });
  const result = await lint(root, '--junit');
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toContain('<testsuites name="sms-emulator lint" tests="100000" failures="0">');
  expect(result.stdout.match(/<testcase /g)).toHaveLength(100_000);
});

test('a .po string is read as msgfmt reads it: octal and hex escapes are UTF-8 bytes, C escapes their characters', async () => {
  const root = folder({
    'fr.po':
      'msgid "a"\nmsgstr "It\\342\\200\\231s \\"ok\\" \\x41\\a"\n\nmsgid "b"\nmsgstr "caf\\303\\251 \\\\ \\x2d"\n',
  });
  const result = await lint(root, '--json');
  const findings = (JSON.parse(result.stdout) as { findings: Record<string, unknown>[] }).findings;
  expect(findings.map((f) => [f.line, f.key, f.position, f.char, f.fix])).toEqual([
    [2, 'a', 3, '’', 'replace U+2019 with "\'" (the text stays UCS-2: U+0007 has no GSM-7 equivalent)'],
  ]);
  const bad = await lint(join(folder({ 'bad.po': 'msgid "a"\nmsgstr "\\377"\n' }), 'bad.po'));
  expect(bad.exitCode).toBe(2);
  expect(bad.stderr).toContain('bad.po: cannot be read as po: line 2: its escaped bytes are not UTF-8');
});

test('a YAML stream of several documents gives the strings of each', async () => {
  const root = folder({ 'a.yaml': '---\nwelcome: "It’s here"\n---\nbye: "See you – soon"\n' });
  const result = await lint(root, '--json');
  const findings = (JSON.parse(result.stdout) as { findings: Record<string, unknown>[] }).findings;
  expect(findings.map((f) => [f.line, f.key, f.char])).toEqual([
    [2, 'welcome', '’'],
    [4, 'bye', '–'],
  ]);
});
