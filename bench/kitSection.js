// The language kits' section of bench/RESULTS.md: each kit's cost of a world with the runtime and emulator it carries
// (bench/kitCost.js), beside the vitest fixture's process mode from the same run. It has its own "Written by" line, so
// `BENCH_ONLY=kits` rewrites it alone (withKitSection), as the fixture section is.

const kitHeading = '## Language kits';

const ms = (value) => (value === undefined ? '—' : `${value.toFixed(2)} ms`);

/** The section's Markdown for the run `r` (r.kits from kitCost, r.fixture when the fixture part ran too). */
export function kitSection(r) {
  const { worlds, kits } = r.kits;
  const remote = r.fixture?.process;
  const mc = r.machine;
  const rows = kits.map((entry) =>
    entry.skipped === undefined
      ? `| ${entry.kit} | ${ms(entry.worldMs)} | ${ms(entry.worldWithSendMs)} | ${entry.emulator} |`
      : `| ${entry.kit} | — | — | skipped: ${entry.skipped} |`,
  );
  return [
    kitHeading,
    '',
    `Written by \`npm run bench\` (kits part, size: ${r.size}) on ${mc.date}, Node ${mc.node}, load average at start ${mc.loadAverage}. Each figure is a median over ${worlds} worlds, measured by the kit's own benchmark (\`kits/<language>/bench-world.sh\`) with the Node runtime and the emulator the kit carries (\`npm run kits\`): a world alone is its set-up and clean-up; the second column adds a send, a wait for \`delivered\` and an assertion on its webhook. The Node fixture's process mode does the same work: ${remote === undefined ? 'run `BENCH_ONLY=fixture,kits` for its figures in the same run' : `${ms(remote.fixture)} alone and ${ms(remote.send)} with the send, in this run`}.`,
    '',
    '| kit | world alone | world + send + `delivered` + webhook | emulator |',
    '|---|---|---|---|',
    ...(remote === undefined
      ? []
      : [`| Node (vitest fixture, process mode) | ${ms(remote.fixture)} | ${ms(remote.send)} | process mode |`]),
    ...rows,
    '',
  ].join('\n');
}

/** RESULTS.md with its kits section replaced by the one of `r` (or added before "## Reproduce"). */
export function withKitSection(text, r) {
  const section = kitSection(r);
  const start = text.indexOf(kitHeading);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + kitHeading.length);
    return `${text.slice(0, start)}${section}\n${next < 0 ? '' : text.slice(next + 1)}`;
  }
  const reproduce = text.indexOf('## Reproduce');
  if (reproduce < 0) throw new Error('bench/RESULTS.md has no "## Reproduce" section to put the kits section before');
  return `${text.slice(0, reproduce)}${section}\n${text.slice(reproduce)}`;
}
