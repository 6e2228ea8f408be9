/** Seeded pseudo-random streams (sfc32), so ids, outcomes and generated text repeat for a seed. */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** A UUID-shaped (version 4 layout) string. */
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

export function createRandom(seed: string | number): Random {
  const seedText = String(seed);
  let [a, b, c, d] = hashSeed(seedText);
  const nextWord = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
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
    uuid: () => {
      const hex = [nextWord(), nextWord(), nextWord(), nextWord()].map((w) => w.toString(16).padStart(8, '0')).join('');
      const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    },
    fork: (label) => createRandom(`${seedText}/${label}`),
    save: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
    restore: (state) => {
      [a, b, c, d] = state;
    },
  };
}
