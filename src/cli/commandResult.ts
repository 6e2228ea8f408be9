/** What a client command prints and how it ends (`main` writes it out and sets the exit status). */

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** One JSON value and a newline; an operation that answers no content (a 204) prints nothing. */
export function printed(value: unknown): string {
  return value === undefined ? '' : `${JSON.stringify(value, null, 2)}\n`;
}
