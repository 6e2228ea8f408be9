/** Seeded reply text from faker's English locale, loaded on first use so start-up stays fast. */

import { lazyPackage } from '../../lazyPackage.js';
import type { Random } from '../../state/random.js';
import type { TextGenerator } from './runtime.js';

const yesNo = ['Yes', 'No', 'Yes please', 'No thanks', 'Maybe later', 'OK'];

export function createTextGenerator(random: Random): TextGenerator {
  const { faker } = lazyPackage('@faker-js/faker/locale/en');
  return (kind) => {
    // Reseed per draw from our own stream, so other users of faker in the process cannot shift it.
    faker.seed(Math.floor(random.next() * 2 ** 31));
    if (kind === 'yes-no') return faker.helpers.arrayElement(yesNo);
    const words = faker.word.words({ count: kind === 'words' ? { min: 1, max: 3 } : { min: 4, max: 12 } });
    return kind === 'words' ? words : `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  };
}
