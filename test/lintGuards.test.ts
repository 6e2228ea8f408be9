/** The lint rules that guard src/: no self-import of the package, and no createRequire outside src/lazyPackage.ts. */

import { ESLint } from 'eslint';
import { expect, test } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../', import.meta.url).pathname });

/** The rule ids ESLint reports for `text` as if it were the file at `path`. */
async function ruleIds(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const fixtures = {
  'a static self-import': "import { createEmulator } from 'sms-emulator';\nexport const e = createEmulator;\n",
  'a self-import of a subpath': "export { createClient } from 'sms-emulator/client';\n",
  'a dynamic self-import': "export const load = () => import('sms-emulator/vitest');\n",
  'createRequire imported': "import { createRequire } from 'node:module';\nexport const r = createRequire;\n",
  'createRequire called from the module namespace':
    "import * as module from 'node:module';\nexport const yaml = module.createRequire(import.meta.url)('yaml');\n",
};

test.each(Object.entries(fixtures))('lint refuses %s inside src/', async (_, text) => {
  const ids = await ruleIds('src/engine/fixture.ts', text);
  expect(ids.some((id) => id === 'no-restricted-imports' || id === 'no-restricted-syntax')).toBe(true);
});

test('the same texts pass outside src/, and createRequire passes in src/lazyPackage.ts', async () => {
  expect(await ruleIds('scripts/fixture.ts', fixtures['a static self-import'])).toEqual([]);
  expect(await ruleIds('src/lazyPackage.ts', fixtures['createRequire imported'])).toEqual([]);
});
