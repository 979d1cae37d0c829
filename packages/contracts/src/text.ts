// Plain functions, no zod: the same rules back the full-zod admin schemas, the zod/mini sign-in schemas
// (on /login's first load) and the API's check of Better Auth request bodies.

// Control characters (C0 except tab, DEL, C1): NUL cannot be stored in PostgreSQL text at all, and the others
// corrupt CSV exports, logs and the BI service's names. Tab is kept in free text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/;
// Line breaks, including Unicode's own, in a field that is shown on one line.
const LINE_BREAK = /[\n\r\u2028\u2029]/;
// Half of a UTF-16 surrogate pair with no other half: not a character, and not encodable as UTF-8.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface TextRules {
  /** Free text may hold line breaks; single-line fields (every field of the portal today) may not. */
  multiline?: boolean;
}

/**
 * What is wrong with a text value, as a message naming the field, or undefined when it may be stored.
 * A line break is reported as such (the readable reason) rather than as a control character.
 */
export function textProblem(value: string, label: string, rules: TextRules = {}): string | undefined {
  if (value.includes("\u0000")) return `${label} must not contain NUL characters.`;
  if (!rules.multiline && LINE_BREAK.test(value)) return `${label} must be on one line (no line breaks).`;
  const control = rules.multiline ? value.replace(/\r\n|[\n\r]/g, "") : value;
  if (CONTROL.test(control)) return `${label} must not contain control characters.`;
  if (LONE_SURROGATE.test(value)) return `${label} contains an invalid character (a broken emoji or symbol).`;
  return undefined;
}

/** Ids travel as canonical decimal integers: no sign, no leading zeros, no spaces, no `0x`, `1.0` or `1e3`. */
export const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;
/** PostgreSQL `integer`, the type of every id column. */
export const MAX_ID = 2_147_483_647;
