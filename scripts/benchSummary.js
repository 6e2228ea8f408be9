// The part of bench/RESULTS.md that docs/performance.md quotes, verbatim: when and where it ran, and the targets table.

/** @param {string} results the text of bench/RESULTS.md */
export function benchSummary(results) {
  const lines = results.split('\n');
  const written = lines.find((line) => line.startsWith('Written by '));
  const machine = lines.find((line) => line.startsWith('Machine: '));
  const start = results.indexOf('| figure | measured | baseline (same run) |');
  const end = results.indexOf('\n\n', start);
  if (written === undefined || machine === undefined || start < 0 || end < 0) throw new Error('bench/RESULTS.md has no machine line or targets table');
  return { written, machine, targets: results.slice(start, end) };
}
