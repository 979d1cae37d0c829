import { sql, type SQL } from "drizzle-orm";

const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%` for LIKE, with the pattern characters in the search text taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/**
 * List search: every word of `q` must be the start of one of the columns ("oli ben" finds Olivia
 * Bennett). Each word is a range scan on a `lower(column) text_pattern_ops` index, so it stays fast
 * with a million rows (docs/decisions/003).
 */
export function prefixSearch(columns: SQL[], q: string): SQL {
  const words = q.split(/\s+/).filter(Boolean).slice(0, 6);
  if (words.length === 0) return sql`true`;
  return sql.join(
    words.map((word) => {
      const pattern = `${escapeLike(word)}%`;
      return sql`(${sql.join(
        columns.map((column) => sql`lower(${column}) like ${pattern}`),
        sql` or `,
      )})`;
    }),
    sql` and `,
  );
}
