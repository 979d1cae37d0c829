/**
 * Whether JSON text nests objects/arrays deeper than `max`, found by one pass over the text before it is
 * parsed. `JSON.parse` itself copes with 100k levels, but everything after it (zod, `JSON.stringify` on the
 * way to Better Auth, drizzle) recurses and overflows the stack: a 500 instead of a 400.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}
