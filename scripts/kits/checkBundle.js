// Proves the carried emulator is self-contained: a copy of kits/dist/bundle/ in an empty temp folder, started by a node
// binary given by absolute path with PATH emptied (as a kit starts it), reaches ready, answers the balance endpoint,
// and resolves every package it loads lazily from its own node_modules/.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The start protocol of the kit contract, with the ready file and the parent's pid filled in. */
function startArgs(contract, readyFile) {
  return contract.start.args.map((arg) =>
    arg === '{readyFile}' ? readyFile : arg === '{parentPid}' ? String(process.pid) : arg,
  );
}

async function waitForFile(path, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let spawnError;
  child.once('error', (error) => (spawnError = error));
  while (!existsSync(path)) {
    if (spawnError !== undefined) throw spawnError;
    if (child.exitCode !== null) throw new Error(`exited with status ${child.exitCode} before it was ready`);
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs} ms`);
    await sleep(25);
  }
}

/**
 * Starts a copy of `bundleDir` with `node` (an absolute path) and checks it; throws with the emulator's output when
 * it fails. Answers the milliseconds from spawn to the ready file and the balance answered.
 */
export async function checkBundle(bundleDir, node, contract, specifiers) {
  const scratch = mkdtempSync(join(tmpdir(), 'sms-emulator-kit-bundle-'));
  const copy = join(scratch, 'bundle');
  cpSync(bundleDir, copy, { recursive: true });
  const entry = join(copy, contract.start.bundleEntry);
  const env = { PATH: '' };
  let output = '';
  const readyFile = join(scratch, 'ready.json');
  const started = performance.now();
  const child = spawn(node, [entry, ...startArgs(contract, readyFile)], { cwd: scratch, env, stdio: 'pipe' });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    await waitForFile(readyFile, child, 30_000);
    const readyMs = Math.round(performance.now() - started);
    const info = JSON.parse(readFileSync(readyFile, 'utf8'));
    const answer = await fetch(`${info.origin}${contract.paths.api.live}/messages/balance`, {
      headers: { authorization: `Basic ${Buffer.from(`${info.apiKey}:`).toString('base64')}` },
    });
    const balance = await answer.text();
    if (answer.status !== 200) throw new Error(`the balance endpoint answered ${answer.status}: ${balance}`);
    // Each lazily loaded package resolves from inside the copy, as the bundled modules load it.
    const probe = `
      const { createRequire } = require('node:module');
      const from = createRequire(${JSON.stringify(join(copy, 'dist/cli-bundle/main.js'))});
      Promise.all(${JSON.stringify(specifiers)}.map((name) => import(from.resolve(name))))
        .then(() => console.log('ok'), (error) => { console.error(error.message); process.exit(1); });`;
    const resolved = spawnSync(node, ['-e', probe], { cwd: scratch, env, encoding: 'utf8' });
    if (resolved.status !== 0) throw new Error(`a carried package does not load: ${resolved.stderr}`);
    return { readyMs, balance: JSON.parse(balance) };
  } catch (error) {
    throw new Error(`kits: the carried emulator failed with ${node}: ${error.message}\n${output}`, { cause: error });
  } finally {
    child.kill();
    rmSync(scratch, { recursive: true, force: true });
  }
}
