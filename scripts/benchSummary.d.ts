/** The part of bench/RESULTS.md the README quotes, verbatim: when and where it ran, and the targets table. */
export function benchSummary(results: string): { written: string; machine: string; targets: string };
