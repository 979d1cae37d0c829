import { createHash, timingSafeEqual } from "node:crypto";
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from "jose";
import { ZEmbedClaimsSchema, type TEmbedClaims } from "@portal/sigma";
import type { Database, Queryable } from "../db/database.ts";
import type { TSigmaErrorCode } from "../error-codes.ts";

/** A refusal with one of Sigma's error codes: the page shows it and posts `workbook:error` `{code, message}`. */
export class EmbedError extends Error {
  constructor(
    readonly code: TSigmaErrorCode,
    message: string,
    /** Logged, never shown: why exactly the token failed. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "EmbedError";
  }
}

/**
 * A refusal Sigma documents without a code ("Some error messages do not return a code, but display a
 * message to the user"): the page shows the message and posts nothing.
 */
export class EmbedNotice extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = "EmbedNotice";
  }
}

/** The only `ver` values Sigma accepts; none means "1.0". */
export const JWT_VERSIONS = ["1.0", "1.1"] as const;

export const CLOCK_SKEW_SECONDS = 60;
const encoder = new TextEncoder();

export interface EmbedClient {
  clientId: string;
  secret: string;
}

function sameString(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * Verifies an embed JWT as Sigma documents: HS256 only, `kid` names a configured embed client whose secret
 * verifies the signature, `sub`/`jti`/`iat`/`exp` present, `exp - iat` at most 30 days, not expired and not
 * issued in the future (60 s of clock skew allowed), `ver` absent, "1.0" or "1.1" (with `aud`). Reuse of the `jti` is checked by `consumeJti`.
 */
export async function verifyEmbedToken(
  token: string | undefined,
  clients: readonly EmbedClient[],
  now: () => number = Date.now,
): Promise<{ claims: TEmbedClaims; kid: string }> {
  const invalid = (detail: string, message = "This embed link is not valid. Please reload the page.") =>
    new EmbedError("EINVAL", message, detail);
  if (!token) throw invalid("missing :jwt");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw invalid("malformed token header");
  }
  if (header.alg !== "HS256") throw invalid(`alg ${String(header.alg)} is not allowed`);
  if (typeof header.kid !== "string") throw invalid("missing kid");
  const client = clients.find((c) => sameString(c.clientId, header.kid as string));
  if (!client) throw invalid("unknown kid");
  let payload: unknown;
  try {
    const nowSeconds = Math.floor(now() / 1000);
    ({ payload } = await jwtVerify(token, encoder.encode(client.secret), {
      algorithms: ["HS256"],
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ["sub", "jti", "iat", "exp"],
      currentDate: new Date(nowSeconds * 1000),
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw invalid("expired", "This embed link has expired. Please reload the page.");
    }
    if (error instanceof joseErrors.JOSEError) throw invalid(`${error.code}: ${error.message}`);
    throw invalid("verification failed");
  }
  const parsed = ZEmbedClaimsSchema.safeParse(payload);
  if (!parsed.success) throw invalid(`claims: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const claims = parsed.data;
  if (claims.ver !== undefined && !(JWT_VERSIONS as readonly string[]).includes(claims.ver)) {
    throw invalid(`ver ${claims.ver} is not 1.0 or 1.1`);
  }
  if (claims.iat > Math.floor(now() / 1000) + CLOCK_SKEW_SECONDS) throw invalid("iat in the future");
  return { claims, kid: client.clientId };
}

/** Records the token's jti; false when it was seen before (every embed URL works once). */
export async function consumeJti(db: Queryable, kid: string, claims: TEmbedClaims): Promise<boolean> {
  const res = await db.query(
    `insert into analytics.used_jtis (jti, kid, member_email, expires_at)
     values ($1, $2, $3, to_timestamp($4))
     on conflict (jti) do nothing
     returning jti`,
    [claims.jti, kid, claims.sub.toLowerCase(), claims.exp + CLOCK_SKEW_SECONDS],
  );
  return res.rows.length === 1;
}

/** Forgets jtis of tokens that could no longer be accepted anyway (expired beyond the skew). */
export async function pruneUsedJtis(db: Database): Promise<void> {
  await db.query("delete from analytics.used_jtis where expires_at < now() - interval '1 day'");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
