/** The HTTP Basic username of an Authorization header, read apart from the checks that use it: the API key. */

/** The API key in an Authorization header, or undefined when there is none to read. */
export function basicUsername(header: string | undefined): string | undefined {
  if (!header) return undefined;
  // A client sends the same header on every request: the last one decoded is kept (the base64 decoding showed in profiles).
  if (header === lastHeader) return lastUsername;
  lastUsername = decodeBasic(header);
  lastHeader = header;
  return lastUsername;
}

let lastHeader: string | undefined;
let lastUsername: string | undefined;

function decodeBasic(header: string): string | undefined {
  if (header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  return username === '' ? undefined : username;
}
