/** Seeded pseudo-random streams (sfc32), so ids, outcomes and generated text repeat for a seed. */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** A 32-bit unsigned integer (the stream's raw draw). */
  word(): number;
  /** A UUID-shaped (version 4 layout) string: `formatUuid` of the next four words. */
  uuid(): string;
  /** An independent stream named `label`, so draws in one part never shift another's. */
  fork(label: string): Random;
  /** The generator's position, to save in a snapshot and `restore` later. */
  save(): RandomState;
  restore(state: RandomState): void;
}

export type RandomState = [number, number, number, number];

function hashSeed(text: string): [number, number, number, number] {
  // xmur3: spreads any string into four 32-bit words for sfc32's state.
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  const word = (): number => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
  return [word(), word(), word(), word()];
}

const hexCodes = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));
const dash = '-'.charCodeAt(0);
/** Where each of the 36 characters comes from: a dash, or the index of a hex digit of the four words (12 is replaced by the version). */
const uuidLayout = [
  ...Array(8).keys(),
  -1,
  8,
  9,
  10,
  11,
  -1,
  12,
  13,
  14,
  15,
  -1,
  16,
  17,
  18,
  19,
  -1,
  ...Array.from({ length: 12 }, (_, i) => 20 + i),
];

/**
 * The 32 hex digits of four words laid out as a version 4 UUID (version digit 4, variant 8-b). Built from character
 * codes in one flat string: ids are stored with every message and webhook event, and a template of slices kept each one
 * as a tree of string pieces (heap snapshots of stored messages, docs/decisions/0001-fast-lane.md).
 */
export function formatUuid(words: readonly number[]): string {
  const digit = (index: number): number => ((words[index >> 3] as number) >>> (28 - 4 * (index & 7))) & 0xf;
  const codes = uuidLayout.map((index, position) => {
    if (index < 0) return dash;
    if (position === 14) return hexCodes[4] as number;
    if (position === 19) return hexCodes[(digit(16) & 0x3) | 0x8] as number;
    return hexCodes[digit(index)] as number;
  });
  return String.fromCharCode(...codes);
}

export function createRandom(seed: string | number): Random {
  const seedText = String(seed);
  let [a, b, c, d] = hashSeed(seedText);
  // The state stays in signed 32-bit form (the same bits): unsigned values over 2^31 are heap numbers, one allocation per step.
  const nextWord = (): number => {
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  return {
    next: () => nextWord() / 4294967296,
    word: nextWord,
    uuid: () => formatUuid([nextWord(), nextWord(), nextWord(), nextWord()]),
    fork: (label) => createRandom(`${seedText}/${label}`),
    save: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
    restore: (state) => {
      [a, b, c, d] = state;
    },
  };
}
