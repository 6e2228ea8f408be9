/** The control API as a Markdown table (docs/control-api.md) derived from the operations table: endpoint, handle members, summary. */

import { isRoute, operationList } from './operationList.js';

/** One row per HTTP operation: `| \`METHOD /_emulator/path\` | \`handle.member\`, … | summary |`. */
export function controlTableRows(): string[] {
  const list = operationList();
  return list.flatMap(([operationId, op]) => {
    if (!isRoute(op)) return [];
    const members = [
      operationId,
      ...list.filter(([, other]) => !isRoute(other) && other.via === operationId).map(([shortcut]) => shortcut),
    ];
    return [
      `| \`${op.method} /_emulator${op.path}\` | ${members.map((member) => `\`${member}\``).join(', ')} | ${op.summary} |`,
    ];
  });
}

export function controlTable(): string {
  return ['| endpoint | library handle | what it does |', '|---|---|---|', ...controlTableRows()].join('\n');
}
