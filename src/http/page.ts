/** The frame of the emulator's own HTML pages (docs and landing page): title, style, navigation. */

import { escapeHtml } from '../ui/escapeHtml.js';

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · sms-emulator</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}section{border-top:1px solid #ddd;padding:.5rem 0}</style>
</head><body><nav><a href="/_emulator">sms-emulator</a> · <a href="/_emulator/docs/">docs</a> · <a href="/_emulator/docs/messages">operations</a> · <a href="/_emulator/docs/errors">errors</a> · <a href="/_emulator/openapi.json">OpenAPI</a></nav><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
