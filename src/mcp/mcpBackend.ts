/** What an MCP session drives: the control operations (in process or over HTTP), the emulator's API, its report and docs. */

import type { ControlRoute } from '../control/operation.js';
import type { TimelineReport } from '../ui/timelineReport.js';

export interface McpBackend {
  /** Runs one route operation with handle arguments; a refusal rejects with the catalogued ApiError. */
  call(op: ControlRoute, args: readonly unknown[]): Promise<unknown>;
  /** One request to the emulator's API (`/v1/messages`), as the app under test sends it. */
  api(path: string, init: RequestInit): Promise<Response>;
  /** The emulator's origin, for the addresses a world shows (`http://127.0.0.1:2727`). */
  origin(): string;
  /** One account's timeline report. */
  report(account: string): Promise<TimelineReport>;
  /** The reference pages (`options.md` → its text), shown as resources. */
  docs(): ReadonlyMap<string, { title: string; text: string }>;
}
