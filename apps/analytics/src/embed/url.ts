/**
 * An embed URL's query string, read from the raw URL: control values keep their encoding, because
 * `%2C` (a comma inside a value) and `,` (between values) mean different things (control-values.ts), and a
 * decoded query cannot tell them apart.
 */

/**
 * The `:` parameters of a JWT-signed URL: `:jwt`, `:embed` and Sigma's interface parameters ("Embed URL
 * parameters"), plus this server's own `:accent_color` (the portal's firm colour, sent only here). Any
 * other `:` parameter makes the URL invalid (EINVAL), as with Sigma.
 */
export const EMBED_URL_PARAMETERS = new Set([
  ":jwt",
  ":embed",
  ":hide_bookmarks",
  ":hide_explore_toggle",
  ":hide_folder_navigation",
  ":hide_menu",
  ":hide_tooltip",
  ":lng",
  ":lng_variant",
  ":menu_position",
  ":responsive_height",
  ":theme",
  ":accent_color",
]);

export interface EmbedQuery {
  /** The `:` parameters, decoded (the first of each name). */
  ui: Map<string, string>;
  /** `<ControlId>` → the value exactly as written in the URL (still encoded). */
  controls: Map<string, string>;
  /** `:` parameters that are not allowed, or could not be read. */
  invalid: string[];
}

function decode(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Splits the query of `url` (a request's raw path and query) without decoding control values. */
export function readEmbedQuery(url: string): EmbedQuery {
  const query: EmbedQuery = { ui: new Map(), controls: new Map(), invalid: [] };
  const at = url.indexOf("?");
  if (at < 0) return query;
  for (const pair of url.slice(at + 1).split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1);
    const key = decode(rawKey);
    if (key === undefined) {
      query.invalid.push(rawKey);
    } else if (key.startsWith(":")) {
      const value = decode(rawValue);
      if (!EMBED_URL_PARAMETERS.has(key) || value === undefined) query.invalid.push(key);
      else if (!query.ui.has(key)) query.ui.set(key, value);
    } else if (!query.controls.has(key)) {
      query.controls.set(key, rawValue);
    }
  }
  return query;
}
