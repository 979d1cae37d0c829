/**
 * One spelling of every request path, applied before routing (Fastify's `rewriteUrl`), so the router, the
 * authentication guard, the CSRF check, `routes/auth.ts` and Better Auth all read the same path.
 *
 * Without it each read a different one: find-my-way routes `/%61pi/me/workbooks` and `http://x/api/...` to
 * `/api/...` while `request.url` keeps the raw spelling, and Better Auth (WHATWG `new URL`) resolves `..`,
 * `%2e%2e` and `\` that find-my-way matches literally inside `/api/auth/*`.
 *
 * The rules (RFC 3986 §6.2.2 plus what the WHATWG parser does for http):
 * - the absolute form `http://host/path` becomes `/path`; a fragment is dropped;
 * - percent-encoded unreserved characters (letters, digits, `-._~`) are decoded, other escapes are kept
 *   with upper-case hex (so nothing is ever decoded twice: `%2561` stays `%2561`);
 * - runs of `/` become one `/`; `\` is `/`; `.` and `..` segments (also spelt `%2e`) are resolved.
 * Letter case is kept: Fastify routes case-sensitively, so `/API/...` is not `/api/...` (a 404).
 * The query string is passed on untouched.
 */
export function canonicalRequestTarget(target: string): string {
  const cut = target.search(/[?#]/);
  let path = cut === -1 ? target : target.slice(0, cut);
  // A fragment is never part of a request; the query (after `?`) is kept as it is.
  const query = cut === -1 || target[cut] === "#" ? "" : target.slice(cut).split("#", 1)[0]!;

  if (!path.startsWith("/")) {
    try {
      path = new URL(path).pathname;
    } catch {
      return target; // Not a URL at all: the router answers it (400 bad URL or 404).
    }
  }
  if (!/%|\\|\/\/|\/\./.test(path)) return path + query;

  for (let round = 0; round < 8; round += 1) {
    const next = resolveDots(collapseSlashes(decodeUnreserved(path)));
    if (next === path) break;
    path = next;
  }
  return path + query;
}

/** The path part of an already canonical `request.url`. */
export function pathOf(url: string): string {
  const cut = url.indexOf("?");
  return cut === -1 ? url : url.slice(0, cut);
}

/** Whether `path` is `prefix` itself or below it (`/api` and `/api/x`, not `/apix`). */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

function collapseSlashes(path: string): string {
  return path.replace(/[/\\]{2,}/g, "/");
}

/** The WHATWG parser's view of the path: `\` → `/`, dot segments (also `%2e`) resolved. */
function resolveDots(path: string): string {
  try {
    return new URL(`http://portal.invalid${path.startsWith("/") ? "" : "/"}${path}`).pathname;
  } catch {
    return path;
  }
}
