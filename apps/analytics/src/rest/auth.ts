import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { hashToken } from "../embed/verify.ts";
import { ApiError, parse, type RestContext } from "./shared.ts";

/** postToken: an access token valid for one hour, as Sigma's. */
export const API_TOKEN_SECONDS = 3600;
/** How long a refresh token may be exchanged for a new pair (Sigma does not publish its own). */
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

/** The form's variants this server takes: "Access token" and "Refresh token" (not the beta impersonation). */
const ZTokenFormSchema = z.discriminatedUnion("grant_type", [
  z.object({ grant_type: z.literal("client_credentials") }),
  z.object({ grant_type: z.literal("refresh_token"), refresh_token: z.string().min(1).max(200) }),
]);

function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** The API client named by HTTP Basic authentication (the operation's `basicAuth` scheme), if it is one. */
function basicClient(request: FastifyRequest, ctx: RestContext) {
  const encoded = /^Basic ([A-Za-z0-9+/=]{4,1000})$/.exec(request.headers.authorization ?? "")?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const id = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  return ctx.config.apiClients.find((c) => sameSecret(c.clientId, id) && sameSecret(c.secret, secret));
}

async function issueTokens(ctx: RestContext, clientId: string) {
  const accessToken = randomBytes(32).toString("base64url");
  const refreshToken = randomBytes(32).toString("base64url");
  await ctx.db.query(
    `insert into analytics.api_tokens (token_hash, client_id, expires_at, refresh_hash, refresh_expires_at)
     values ($1, $2, now() + make_interval(secs => $3), $4, now() + make_interval(secs => $5))`,
    [hashToken(accessToken), clientId, API_TOKEN_SECONDS, hashToken(refreshToken), REFRESH_TOKEN_SECONDS],
  );
  await ctx.db.query(
    `delete from analytics.api_tokens
      where expires_at < now() - interval '1 day' and coalesce(refresh_expires_at, expires_at) < now()`,
  );
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    token_type: "bearer",
    expires_in: API_TOKEN_SECONDS,
  };
}

export function registerAuthRoutes(v2: FastifyInstance, ctx: RestContext): void {
  // postToken: form-encoded, the client id and secret by HTTP Basic authentication.
  v2.post("/auth/token", async (request) => {
    const client = basicClient(request, ctx);
    if (!client) throw new ApiError(401, "Invalid client credentials.");
    if (!String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      throw new ApiError(400, "The token request must be application/x-www-form-urlencoded.");
    }
    const form = parse(ZTokenFormSchema, request.body);
    if (form.grant_type === "refresh_token") {
      // A refresh token is used once: the pair it came with is replaced by a new one.
      const used = await ctx.db.query(
        `delete from analytics.api_tokens
          where refresh_hash = $1 and client_id = $2 and refresh_expires_at > now() returning token_hash`,
        [hashToken(form.refresh_token), client.clientId],
      );
      if (used.rows.length === 0) throw new ApiError(400, "The refresh token is not valid.");
    }
    return issueTokens(ctx, client.clientId);
  });
}

/** Every other operation needs a live access token (`Authorization: Bearer`), else 401. */
export async function requireAccessToken(request: FastifyRequest, ctx: RestContext): Promise<void> {
  const token = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(request.headers.authorization ?? "")?.[1];
  const valid =
    token &&
    (
      await ctx.db.query("select 1 from analytics.api_tokens where token_hash = $1 and expires_at > now()", [
        hashToken(token),
      ])
    ).rows.length > 0;
  if (!valid) throw new ApiError(401, "A valid bearer token is required.");
}
