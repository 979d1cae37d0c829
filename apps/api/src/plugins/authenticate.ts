import {
  MFA_ENROLLMENT_REQUIRED,
  MFA_ENROLLMENT_REQUIRED_MESSAGE,
  type TRole,
  type TSecondStep,
  type TSecondStepStatus,
} from "@portal/contracts";
import { and, eq, gt } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet } from "jose";
import type { AccessCache } from "../access/access-cache.ts";
import type { Auth } from "../auth/auth.ts";
import type { AppConfig } from "../config.ts";
import {
  PASSKEY_SIGN_IN_REQUIRED,
  PASSKEY_SIGN_IN_REQUIRED_MESSAGE,
  secondStepOf,
} from "../auth/enrolment.ts";
import { hasPasskey } from "../auth/hooks/context.ts";
import { effectiveSignInPolicy } from "../signin/policy.ts";
import type { Database } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";
import { isUnder, pathOf } from "../lib/canonical-url.ts";
import { AppError, forbidden, unauthenticated } from "../lib/errors.ts";
import { toWebHeaders } from "../lib/web-request.ts";

export interface Principal {
  userId: string;
  email: string;
  name: string;
  role: TRole | null;
  sessionId: string;
  via: "cookie" | "bearer";
  /** Cached with the principal: where the person stands with the two-step policy (decision 006, issue 24). */
  secondStep: TSecondStepStatus;
  /** When the portal session ends (ms): no embed session outlives it. */
  sessionExpiresAt: number;
}

/** A principal as the cache keeps it: with the time (ms) its session or token stops being valid. */
export type CachedPrincipal = Principal & { validUntil: number };

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /**
     * The principal of a request's session cookie (the same cached verification as the API's), or null, never
     * refusing: for what a page answer outside /api says to a signed-in browser (plugins/web-files.ts).
     */
    cookiePrincipal(request: FastifyRequest): Promise<Principal | null>;
  }
  interface FastifyContextConfig {
    /** Routes under /api that answer without a session. Everything else is denied by default. */
    public?: boolean;
    /** A route outside /api that needs a principal too (the spec's unprefixed edit-workbook path). */
    protected?: boolean;
    /**
     * An unsafe-method route that changes no session, role or assignment (it only appends to the audit
     * trail), so it need not clear the access caches. Every other POST/PUT/PATCH/DELETE clears them.
     */
    keepsAccess?: boolean;
  }
}

export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
const expiry = (principal: CachedPrincipal) => principal.validUntil;
const JWKS_TTL_MS = 5 * 60 * 1000;

export interface AuthenticateOptions {
  auth: Auth;
  db: Database;
  config: AppConfig;
  /** Recently verified sessions and tokens (keyed by the exact cookie header or token). */
  principals: AccessCache<CachedPrincipal>;
}

/**
 * Deny by default: every /api/* route needs a signed-in principal unless its route config says
 * `public: true`. A principal comes from the session cookie or from `Authorization: Bearer <JWT>`
 * (issued by /api/auth/token, verified against our JWKS, and only while its session is still alive).
 */
export const authenticate = fp<AuthenticateOptions>(
  async (app: FastifyInstance, { auth, db, config, principals }) => {
    let jwks: { set: ReturnType<typeof createLocalJWKSet>; at: number } | undefined;
    const keySet = async (force = false) => {
      if (!jwks || force || Date.now() - jwks.at > JWKS_TTL_MS) {
        const keys = (await auth.api.getJwks()) as JSONWebKeySet;
        jwks = { set: createLocalJWKSet(keys), at: Date.now() };
      }
      return jwks.set;
    };

    async function fromBearer(token: string): Promise<CachedPrincipal | null> {
      let payload;
      const verify = async (force: boolean) =>
        jwtVerify(token, await keySet(force), {
          algorithms: ["EdDSA"],
          issuer: config.publicUrl,
          audience: config.publicUrl,
          requiredClaims: ["sub", "exp", "iat", "sid"],
        });
      try {
        payload = (await verify(false)).payload;
      } catch (error) {
        if (!(error instanceof joseErrors.JWKSNoMatchingKey)) return null;
        try {
          payload = (await verify(true)).payload;
        } catch {
          return null;
        }
      }
      const [row] = await db
        .select({
          userId: users.id,
          email: users.email,
          name: users.name,
          role: users.role,
          twoFactorEnabled: users.twoFactorEnabled,
          banned: users.banned,
          sessionId: sessions.id,
          sessionExpiresAt: sessions.expiresAt,
          signInMethod: sessions.signInMethod,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            eq(sessions.id, String(payload.sid)),
            eq(sessions.userId, String(payload.sub)),
            gt(sessions.expiresAt, new Date()),
          ),
        );
      if (!row || row.banned) return null;
      const { banned: _banned, sessionExpiresAt, twoFactorEnabled, signInMethod, ...principal } = row;
      const { requiredRoles } = await effectiveSignInPolicy(db, config);
      const facts = {
        role: row.role,
        twoFactorEnabled,
        signInMethod,
        hasPasskey: await hasPasskey(db, row.userId),
      };
      return {
        ...principal,
        secondStep: secondStepOf(facts, requiredRoles).status,
        role: row.role as TRole | null,
        via: "bearer",
        sessionExpiresAt: sessionExpiresAt.getTime(),
        validUntil: Math.min(sessionExpiresAt.getTime(), Number(payload.exp) * 1000),
      };
    }

    async function fromCookie(request: FastifyRequest): Promise<CachedPrincipal | null> {
      const result = await auth.api.getSession({ headers: toWebHeaders(request) });
      if (!result) return null;
      return {
        validUntil: new Date(result.session.expiresAt).getTime(),
        userId: result.user.id,
        email: result.user.email,
        name: result.user.name,
        role: (result.user.role ?? null) as TRole | null,
        sessionId: result.session.id,
        via: "cookie",
        // Better Auth's get-session answer carries the portal's `secondStep` (auth/hooks/two-step.ts).
        secondStep: (result as { secondStep?: TSecondStep }).secondStep?.status ?? "required",
        sessionExpiresAt: new Date(result.session.expiresAt).getTime(),
      };
    }

    app.decorateRequest("principal", null);
    app.decorate("cookiePrincipal", async (request: FastifyRequest) =>
      request.headers.cookie
        ? principals.read(`cookie:${request.headers.cookie}`, () => fromCookie(request), expiry)
        : null,
    );

    app.addHook("onRequest", async (request) => {
      // Decided from the route the router matched (its pattern, which no spelling of the URL can change),
      // or for a request that matched none from the canonical path the router tried (app.ts `rewriteUrl`).
      const path = request.routeOptions.url ?? pathOf(request.url);
      const guarded = isUnder(path, "/api") || request.routeOptions.config?.protected === true;
      if (!guarded || isUnder(path, "/api/auth") || isUnder(path, "/api/docs")) return;
      const header = request.headers.authorization;
      if (header?.startsWith("Bearer ")) {
        const token = header.slice("Bearer ".length).trim();
        request.principal = await principals.read(`bearer:${token}`, () => fromBearer(token), expiry);
        if (!request.principal)
          throw new AppError(401, "The access token is invalid or has expired.", "BAD_TOKEN");
      } else if (request.headers.cookie) {
        request.principal = await principals.read(
          `cookie:${request.headers.cookie}`,
          () => fromCookie(request),
          expiry,
        );
        // CSRF: a cookie-authenticated write must come from our own origin.
        if (
          request.principal &&
          !SAFE_METHODS.has(request.method) &&
          !isSameOrigin(request, config.publicUrl)
        ) {
          throw forbidden("Cross-site request refused.");
        }
      }
      if (!request.principal && !request.routeOptions.config.public) throw unauthenticated();
      // Deny by default until a person whose role requires two-step verification has set it up. What
      // enrolment needs is under /api/auth (session, sign-out, /two-factor/*: see routes/auth.ts) or public.
      if (request.principal && !request.routeOptions.config.public) {
        if (request.principal.secondStep === "required") {
          throw new AppError(403, MFA_ENROLLMENT_REQUIRED_MESSAGE, MFA_ENROLLMENT_REQUIRED);
        }
        if (request.principal.secondStep === "passkey_sign_in") {
          throw new AppError(403, PASSKEY_SIGN_IN_REQUIRED_MESSAGE, PASSKEY_SIGN_IN_REQUIRED);
        }
      }
    });
  },
);

function isSameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const expected = new URL(publicUrl).origin;
  const origin = request.headers.origin;
  if (origin) return origin === expected;
  const referer = request.headers.referer;
  if (referer) {
    try {
      return new URL(referer).origin === expected;
    } catch {
      return false;
    }
  }
  // Browsers send Origin on cross-site writes; a request without Origin or Referer is not a browser form.
  return request.headers["sec-fetch-site"] === undefined;
}

/**
 * The signed-in principal must hold one of the roles (403 otherwise). Registered as an `onRequest` hook, so it
 * runs before the body is parsed and validated: anonymous 401, wrong role 403, and only then 400.
 */
export function requireRole(...allowed: TRole[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!request.principal) throw unauthenticated();
    if (!request.principal.role || !allowed.includes(request.principal.role)) throw forbidden();
  };
}
