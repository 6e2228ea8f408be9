/** The parts of bench/RESULTS.md the docs quote, verbatim: when and where it ran, the targets table, and the vitest fixture's own section. */
export function benchSummary(results: string): {
  written: string;
  machine: string;
  targets: string;
  fixture: { written: string; table: string };
};
