/**
 * When a workbook frame must be renewed. The analytics service's embed session lasts from the token's `iat`
 * to its `exp`; when it runs out, the frame shows "Session expired. Reload the page." and tells the portal
 * nothing (no `workbook:error`). So the view reads the two times from the URL it was given and opens a new
 * frame, with a new one-time URL, shortly before the end.
 */

/** The embed session of one minted URL, in seconds of the server's clock, as its token says. */
export type TEmbedSession = { issuedAt: number; expiresAt: number; jti: string | null };

/** When to renew a frame and when its session ends, in milliseconds of the browser's clock. */
export type TRenewalPlan = {
  /** When to mint the next URL; null when the frame is not renewed (see `renewalPlan`). */
  renewAt: number | null;
  /** When the analytics service ends the frame's session. */
  endsAt: number;
};

/** Renew at most this long before the end... */
export const RENEWAL_LEAD_MS = 60_000;
/** ...and at most this part of the session before it, so a short session is not renewed at once. */
const RENEWAL_LEAD_SHARE = 0.25;
/**
 * The frame counts as ended this much before its computed end: the token's `iat` is rounded down to the
 * second and the URL takes a moment to arrive, so the service's own end can come up to about that much
 * earlier than counted, and its "Session expired" page must not be what the person sees.
 */
export const SESSION_END_MARGIN_MS = 2_000;
/**
 * The shortest session the portal API issues on its own (SIGMA_EMBED_SESSION_SECONDS is at least 60). A
 * shorter one was cut at the end of the person's portal session, which no embed session outlives: renewing
 * it would only open ever shorter frames until then. It is left to end; its end asks whether the portal
 * session is still there, and sign-in follows when it is not (workbook-embed.tsx).
 */
export const MIN_RENEWED_SESSION_SECONDS = 60;
/**
 * How often a pending deadline is compared with the wall clock: a laptop that slept past it gets its
 * timers late (they count awake time only), so they are checked at least this often.
 */
export const DEADLINE_CHECK_MS = 10_000;

function decodeBase64Url(part: string): string | null {
  try {
    const base64 = part.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "="));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * `iat`, `exp` and `jti` of the token in the URL's `:jwt`, or null when there is no readable token (such a
 * frame is simply not renewed). Read, never verified: the analytics service verifies it; the portal only
 * needs to know when it ends.
 */
export function readEmbedSession(embedUrl: string | null | undefined): TEmbedSession | null {
  if (!embedUrl) return null;
  let token: string | null;
  try {
    token = new URL(embedUrl).searchParams.get(":jwt");
  } catch {
    return null;
  }
  const payload = token?.split(".")[1];
  const json = payload ? decodeBase64Url(payload) : null;
  if (!json) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof claims !== "object" || claims === null) return null;
  const { iat, exp, jti } = claims as Record<string, unknown>;
  if (typeof iat !== "number" || typeof exp !== "number" || !Number.isFinite(iat) || !(exp > iat)) {
    return null;
  }
  return { issuedAt: iat, expiresAt: exp, jti: typeof jti === "string" ? jti : null };
}

/** How long before the end a session of `seconds` is renewed: a minute, or a quarter of a short one. */
export function renewalLeadMs(seconds: number): number {
  return Math.min(RENEWAL_LEAD_MS, seconds * 1000 * RENEWAL_LEAD_SHARE);
}

/**
 * The plan for a frame whose URL arrived at `receivedAt` (browser clock). The times are counted from
 * arrival with the token's length (`exp - iat`), not from `exp` itself: the browser's clock may be minutes
 * off the server's, and a clock ahead would renew every new frame at once. Arrival is a little after
 * `iat`, so the real end comes at most the minting time earlier: well inside the lead for the renewal, and
 * covered by SESSION_END_MARGIN_MS for the end.
 */
export function renewalPlan(session: TEmbedSession, receivedAt: number): TRenewalPlan {
  const seconds = session.expiresAt - session.issuedAt;
  const endsAt = receivedAt + seconds * 1000 - SESSION_END_MARGIN_MS;
  return {
    renewAt:
      seconds < MIN_RENEWED_SESSION_SECONDS ? null : receivedAt + seconds * 1000 - renewalLeadMs(seconds),
    endsAt,
  };
}

/**
 * Calls `onDue` once, as soon as the wall clock reaches `dueAt` (ms), and at once (on the next turn) if it
 * already has: a timer that fires late, a laptop that slept past it. A timer counts awake time only, so it
 * is re-armed at most `DEADLINE_CHECK_MS` ahead, and the clock is also checked when the page becomes
 * visible again. Returns the cancel function (an effect's cleanup).
 */
export function whenDue(dueAt: number, onDue: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const hasDocument = typeof document !== "undefined";
  const stop = () => {
    done = true;
    clearTimeout(timer);
    if (hasDocument) document.removeEventListener("visibilitychange", onVisible);
  };
  const check = () => {
    if (done) return;
    clearTimeout(timer);
    const left = dueAt - Date.now();
    if (left > 0) {
      timer = setTimeout(check, Math.min(left, DEADLINE_CHECK_MS));
      return;
    }
    stop();
    onDue();
  };
  function onVisible() {
    if (document.visibilityState === "visible") check();
  }
  if (hasDocument) document.addEventListener("visibilitychange", onVisible);
  timer = setTimeout(check, Math.max(0, Math.min(dueAt - Date.now(), DEADLINE_CHECK_MS)));
  return stop;
}
