/** How many SMS segments a text needs (GSM-7 or UCS-2), and so what a send costs. */

// GSM 03.38 basic character set (one septet each).
const gsmBasic = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
// Extension table: each costs an escape septet plus itself.
const gsmExtension = new Set('\f^{}\\[~]|€');

/** How a text is encoded for the network: the GSM 7-bit alphabet, or UCS-2 when a character is outside it. */
export const encodings = ['GSM-7', 'UCS-2'] as const;
export type Encoding = (typeof encodings)[number];

/** How a text is encoded and how many segments it takes. */
export interface SegmentCount {
  encoding: Encoding;
  /** Septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number;
  segments: number;
}

/** True for a character of GSM 03.38, its basic set or its extension table. */
export function isGsm7Character(char: string): boolean {
  return gsmBasic.has(char) || gsmExtension.has(char);
}

/** The first character outside GSM 03.38 (basic or extension table): the one that forces UCS-2; undefined for a GSM-7 text. */
export function ucs2Trigger(text: string): string | undefined {
  for (const char of text) if (!isGsm7Character(char)) return char;
  return undefined;
}

/**
 * Segments and encoding of a text (GSM-7 or UCS-2), as the emulator charges them.
 * @example countSegments('Hello') // { encoding: 'GSM-7', units: 5, segments: 1 }
 */
export function countSegments(text: string): SegmentCount {
  if (ucs2Trigger(text) !== undefined) return ucs2(text);
  let septets = 0;
  for (const char of text) septets += septetsOf(char);
  return { encoding: 'GSM-7', units: septets, segments: septets <= 160 ? 1 : parts(text, 153, septetsOf) };
}

function ucs2(text: string): SegmentCount {
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : parts(text, 67, unitsOf) };
}

function septetsOf(char: string): number {
  return gsmExtension.has(char) ? 2 : 1;
}

function unitsOf(char: string): number {
  return char.length;
}

/**
 * The parts a multipart text is sent in: its characters packed in order into parts of `room` units, as carriers split
 * it. An extension character's escape and the character, or a surrogate pair, never straddle two parts, so a part
 * that would end in the middle of one holds a unit less (152 septets, 66 units) and the text can need one part more
 * than its units divided by `room` (shared/DECISIONS.md, Credits).
 */
function parts(text: string, room: number, size: (char: string) => number): number {
  let count = 1;
  let used = 0;
  for (const char of text) {
    const units = size(char);
    if (used + units > room) {
      count += 1;
      used = 0;
    }
    used += units;
  }
  return count;
}

/** How a send is charged: a credit per segment of each recipient's text, or one per message. */
export const pricings = ['per-segment', 'per-message'] as const;
export type Pricing = (typeof pricings)[number];

/** Credits for sending `text` to `recipients` numbers; an empty text still costs one segment. */
export function sendCost(text: string, recipients: number, pricing: Pricing): number {
  const perRecipient = pricing === 'per-message' ? 1 : Math.max(1, countSegments(text).segments);
  return perRecipient * recipients;
}
