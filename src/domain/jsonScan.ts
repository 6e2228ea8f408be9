/** One pass over JSON text, without parsing it, that tells its nesting depth, a stray closing bracket and a raw control character apart. */

/** Deeper nesting than this is refused wherever JSON is read (JSON_EXCEEDED; the limit PHP's json_decode uses by default). */
export const maxJsonDepth = 512;

export interface JsonScan {
  depth: number;
  /** A closing bracket with no matching opener (underflow or mode mismatch). */
  mismatch: boolean;
  /** A raw control character inside a string, or outside one where JSON allows none. */
  controlChar: number | undefined;
}

/** One pass over JSON text, tracking strings, so nesting and stray characters can be told apart. */
export function scanJson(text: string): JsonScan {
  const stack: number[] = [];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
      else if (code < 0x20) return { depth, mismatch: false, controlChar: i };
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      stack.push(code + 2); // '{' + 2 = '}', '[' + 2 = ']'
      if (stack.length > depth) depth = stack.length;
    } else if (code === 0x7d || code === 0x5d) {
      if (stack.pop() !== code) return { depth, mismatch: true, controlChar: undefined };
    } else if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) {
      return { depth, mismatch: false, controlChar: i };
    }
  }
  return { depth, mismatch: false, controlChar: undefined };
}

/**
 * Whether JSON text nests deeper than maxJsonDepth levels. Only text with more brackets than the limit can, so shorter
 * text is not scanned. Deeper values are refused before anything walks them: a walk that recurses (a comparison, a
 * template, JSON.stringify) overflows the stack at some ten thousand levels.
 */
export function nestedTooDeep(text: string): boolean {
  return text.length > maxJsonDepth * 2 && scanJson(text).depth > maxJsonDepth;
}
