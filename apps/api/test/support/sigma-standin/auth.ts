import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { StandInContext } from "./context.ts";
import { badRequest, SigmaApiError } from "./http.ts";
import type { TokenRequestEntry } from "./store.ts";

// postToken (auth definition §3.1 and https://help.sigmacomputing.com/reference/token): form-encoded
// body, grant_type client_credentials or refresh_token; the client id and secret as HTTP Basic
// username/password (the definition's basicAuth scheme; the token page's usage notes say the same).
// A newer version of that page sends them as client_id/client_secret form fields instead, so those are
// accepted too unless acceptFormCredentials is false. Every other operation needs "Authorization:
// Bearer <access_token>"; an expired, revoked or unknown token is a 401 ("When the token expires, an
// endpoint response returns an unauthorized error").

interface IssuedToken {
  expiresAt: number;
  clientId: string;
}

export interface TokenStore {
  access: Map<string, IssuedToken>;
  refresh: Map<string, { clientId: string }>;
  /** Drops every access and refresh token issued so far: the next call with one of them is a 401. */
  revokeAll(): void;
}

export function createTokenStore(): TokenStore {
  const access = new Map<string, IssuedToken>();
  const refresh = new Map<string, { clientId: string }>();
  return {
    access,
    refresh,
    revokeAll() {
      access.clear();
      refresh.clear();
    },
  };
}

function unauthorized(message = "Unauthorized"): SigmaApiError {
  return new SigmaApiError(401, message);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function basicCredentials(req: FastifyRequest): { id: string; secret: string } | null {
  const header = req.headers.authorization ?? "";
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString();
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function bearerToken(req: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  return match ? match[1]! : null;
}

/** The check every operation but postToken makes (security: oauth2 client credentials). */
export function requireBearer(ctx: StandInContext, tokens: TokenStore, req: FastifyRequest): void {
  const token = bearerToken(req);
  if (!token) throw unauthorized("Missing bearer token");
  const issued = tokens.access.get(token);
  if (!issued) throw unauthorized("Invalid or revoked access token");
  if (ctx.now().getTime() >= issued.expiresAt) throw unauthorized("Access token expired");
}

export function registerAuth(ctx: StandInContext, tokens: TokenStore): void {
  ctx.route("POST", "/v2/auth/token", "postToken", (req) => {
    const entry: TokenRequestEntry = { grantType: "", credentialsIn: "none", status: 401 };
    ctx.state.tokenRequests.push(entry);
    const contentType = String(req.headers["content-type"] ?? "");
    if (!contentType.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
      entry.status = 400;
      throw badRequest("The token request must be application/x-www-form-urlencoded");
    }
    const form = (req.body ?? {}) as Record<string, string>;
    entry.grantType = form.grant_type ?? "";

    const basic = basicCredentials(req);
    const formCredentials =
      ctx.settings.acceptFormCredentials && form.client_id !== undefined
        ? { id: form.client_id, secret: form.client_secret ?? "" }
        : null;
    const credentials = basic ?? formCredentials;
    entry.credentialsIn = basic ? "basic" : formCredentials ? "form" : bearerToken(req) ? "bearer" : "none";
    const credentialsValid =
      credentials !== null &&
      same(credentials.id, ctx.settings.clientId) &&
      same(credentials.secret, ctx.settings.clientSecret);
    if (credentials !== null && !credentialsValid) throw unauthorized("Invalid client credentials");

    if (form.grant_type === "client_credentials") {
      if (!credentialsValid) throw unauthorized("Client credentials are required");
    } else if (form.grant_type === "refresh_token") {
      // The definition allows basicAuth or bearerAuth on this operation; either must be valid.
      const bearer = bearerToken(req);
      const bearerValid = bearer !== null && tokens.access.has(bearer);
      if (!credentialsValid && !bearerValid) throw unauthorized("Client credentials are required");
      const known = form.refresh_token ? tokens.refresh.get(form.refresh_token) : undefined;
      if (!known || known.clientId !== ctx.settings.clientId) throw unauthorized("Invalid refresh token");
    } else {
      entry.status = 400;
      throw badRequest("grant_type must be client_credentials or refresh_token");
    }

    const accessToken = randomBytes(32).toString("base64url");
    const refreshToken = randomBytes(32).toString("base64url");
    tokens.access.set(accessToken, {
      expiresAt: ctx.now().getTime() + ctx.settings.tokenTtlSeconds * 1000,
      clientId: ctx.settings.clientId,
    });
    tokens.refresh.set(refreshToken, { clientId: ctx.settings.clientId });
    entry.status = 200;
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: "bearer",
      expires_in: ctx.settings.tokenTtlSeconds,
    };
  });
}
