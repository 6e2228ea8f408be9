// The parts of bench/RESULTS.md that the docs quote, verbatim: when and where it ran and the targets table (docs/performance.md),
// and the vitest fixture's section, which has its own "Written by" line and table (docs/performance.md and docs/vitest-and-client.md).

/** @param {string} results the text of bench/RESULTS.md */
export function benchSummary(results) {
  const lines = results.split('\n');
  const written = lines.find((line) => line.startsWith('Written by '));
  const machine = lines.find((line) => line.startsWith('Machine: '));
  const start = results.indexOf('| figure | measured | baseline (same run) |');
  const end = results.indexOf('\n\n', start);
  if (written === undefined || machine === undefined || start < 0 || end < 0)
    throw new Error('bench/RESULTS.md has no machine line or targets table');
  const fixtureStart = results.indexOf('## Vitest fixture');
  const fixtureWritten = lines.find(
    (line, index) => line.startsWith('Written by ') && index > results.slice(0, fixtureStart).split('\n').length,
  );
  const tableStart = results.indexOf('| per test | measured | baseline (same run) |', fixtureStart);
  const tableEnd = results.indexOf('\n\n', tableStart);
  if (fixtureStart < 0 || fixtureWritten === undefined || tableStart < 0 || tableEnd < 0)
    throw new Error('bench/RESULTS.md has no vitest fixture section with its table');
  return {
    written,
    machine,
    targets: results.slice(start, end),
    fixture: { written: fixtureWritten, table: results.slice(tableStart, tableEnd) },
  };
}
