/** Writes the timeline report to a file (the reportOnExit option): JSON for a .json path, else the HTML page. */

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { reportPage } from './reportPage.js';
import type { TimelineReport } from './timelineReport.js';

export async function writeReport(path: string, report: TimelineReport): Promise<void> {
  const text = path.toLowerCase().endsWith('.json') ? `${JSON.stringify(report, null, 2)}\n` : reportPage(report);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  } catch (error) {
    // Stopping must still finish: a report that cannot be written is said, not thrown.
    console.error(`sms-emulator: could not write the timeline report to ${path}: ${(error as Error).message}`);
  }
}
