/** The differential run's comparison (see diff.js). */
import type { Recording } from './session.js';

export const absent: '(absent)';
export interface Difference {
  call: string;
  path: string;
  before: unknown;
  after: unknown;
}
export interface DifferenceGroup extends Difference {
  count: number;
}
export interface Expectation {
  call?: string;
  path: string;
  before?: unknown;
  after?: unknown;
  changelog: string;
}
export function diffRecordings(before: Recording, after: Recording): Difference[];
export function pathPattern(path: string): string;
export function formatDiff(differences: Difference[]): string;
export function groupDifferences(differences: Difference[]): DifferenceGroup[];
export function checkExpectations(
  differences: Difference[],
  expected: Expectation[],
): { unexpected: Difference[]; unseen: Expectation[] };
export function readExpectations(text: string): Expectation[];
