/** Scenario patterns (regexes and recipient globs) compiled to a linear-time engine, so no pattern can stall the event loop. */

import { lazyPackage } from '../../lazyPackage.js';

/** Longest regex or glob a scenario may hold, in characters. */
export const maxPatternLength = 1000;
/** Most repetitions (`{n}`, `{m,n}` counts added up) a regex may ask for: each one copies its atom into the program. */
export const maxRepeatTotal = 1000;
/** Largest compiled program: matching costs (text length × program size), so this bounds one match to a few milliseconds. */
export const maxPatternInstructions = 2000;

const repeatCount = /\{(\d+)(?:,(\d*))?\}/g;

export type PatternTest = (text: string) => boolean;

type Compiled = ReturnType<(typeof import('re2js'))['RE2JS']['compile']>;

/** `source` compiled to RE2 within the bounds above; throws with the reason when it is too long or does not compile. */
function compileBounded(source: string): Compiled {
  if (source.length > maxPatternLength) throw new Error(`longer than ${maxPatternLength} characters`);
  // Checked before compiling, which would copy the atoms first: `x{1,999}|y{1,999}|…` takes seconds.
  let repeats = 0;
  for (const [, min, max] of source.matchAll(repeatCount)) repeats += Number(max || min);
  if (repeats > maxRepeatTotal) throw new Error(`repetition counts add up to ${repeats}, more than ${maxRepeatTotal}`);
  const compiled = lazyPackage('re2js').RE2JS.compile(source);
  const size = compiled.re2().prog.numInst();
  if (size > maxPatternInstructions)
    throw new Error(`compiles to ${size} instructions, more than ${maxPatternInstructions}`);
  return compiled;
}

/**
 * A test that finds `source` anywhere in the text, like RegExp#test, but in time linear in the text
 * whatever the pattern (RE2 syntax: no backreferences or lookaround). Throws with the reason when
 * the pattern is too long or does not compile.
 */
export function compileRegex(source: string): PatternTest {
  const compiled = compileBounded(source);
  return (text) => compiled.test(text);
}

/** Like compileRegex, but answers what the first match found: its first group when it has one, else the whole match. */
export function compileExtractor(source: string): (text: string) => string | undefined {
  const compiled = compileBounded(source);
  return (text) => {
    const matcher = compiled.matcher(text);
    if (!matcher.find()) return undefined;
    return (matcher.groupCount() > 0 ? matcher.group(1) : matcher.group(0)) ?? undefined;
  };
}

/** A test for the whole text against a glob: `*` any run of characters, `?` any one, everything else literal. */
export function compileGlob(glob: string): PatternTest {
  if (glob.length > maxPatternLength) throw new Error(`longer than ${maxPatternLength} characters`);
  if (!glob.includes('*') && !glob.includes('?')) return (text) => text === glob;
  const { RE2JS } = lazyPackage('re2js');
  const body = glob
    .split(/([*?])/)
    .map((part) => (part === '*' ? '.*' : part === '?' ? '.' : part === '' ? '' : RE2JS.quote(part)))
    .join('');
  return compileRegex(`^(?s:${body})$`);
}

/** Why a regex (or glob) cannot be used, or undefined when it compiles: what a scenario is told at load. */
export function patternProblem(source: string, compile: (source: string) => PatternTest): string | undefined {
  try {
    compile(source);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^error parsing regexp: /, '');
  }
}
