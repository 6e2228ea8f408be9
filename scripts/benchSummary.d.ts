/** The part of bench/RESULTS.md that docs/performance.md quotes, verbatim: when and where it ran, and the targets table. */
export function benchSummary(results: string): { written: string; machine: string; targets: string };
