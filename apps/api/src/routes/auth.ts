import {
  MFA_ENROLLMENT_REQUIRED,
  MFA_ENROLLMENT_REQUIRED_MESSAGE,
  requiresTwoFactor,
} from "@portal/contracts";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { RateLimiterMemory } from "rate-limiter-flexible";
import type { Auth } from "../auth/auth.ts";
import { claimTotpCode, TOTP_CODE_USED, TOTP_CODE_USED_MESSAGE } from "../auth/two-factor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { mustEnrol } from "../plugins/authenticate.ts";
import { sendWebResponse, toWebHeaders, toWebRequest } from "../lib/web-request.ts";

export interface AuthRoutesOptions {
  auth: Auth;
  db: Database;
  config: AppConfig;
  signInFailures: RateLimiterMemory;
}

/** Per-account brute-force limit: failed sign-ins counted per email, time-boxed, cleared on success or reset. */
export function createSignInFailureLimiter(config: AppConfig) {
  return new RateLimiterMemory({
    keyPrefix: "sign-in-failures",
    points: config.signInMaxFailures,
    duration: config.signInLockWindowSeconds,
  });
}

function emailOf(body: unknown): string | undefined {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : undefined;
}

function codeOf(body: unknown): string | undefined {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Better Auth paths someone who must still set up two-step verification may use (decision 006): the session,
 * sign-out, the two-factor endpoints themselves, and what works without a session. Everything else that
 * carries such a person's session answers 403 MFA_ENROLLMENT_REQUIRED (a JWT from /token, profile changes...).
 */
const MFA_ENROLMENT_AUTH_PATHS = [
  "/get-session",
  "/sign-out",
  "/two-factor/",
  "/sign-in/",
  "/sign-up/",
  "/request-password-reset",
  "/reset-password",
  "/callback/",
  "/oauth2/callback/",
  "/jwks",
  "/ok",
  "/error",
];

const SECOND_STEP_PATHS: Record<string, string> = {
  "/two-factor/verify-totp": "totp",
  "/two-factor/verify-backup-code": "backup_code",
};

interface AuthPerson {
  userId: string;
  email: string;
  role: string | null;
  twoFactorEnabled: boolean;
}

/** The `code` of a Better Auth answer (JSON `{ code, message }`), or of a success body's flag. */
async function answerOf(response: Response): Promise<{ code?: string; twoFactorRedirect?: boolean }> {
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return {};
  try {
    const body = (await response.clone().json()) as { code?: unknown; twoFactorRedirect?: unknown } | null;
    return {
      ...(typeof body?.code === "string" ? { code: body.code } : {}),
      ...(body?.twoFactorRedirect === true ? { twoFactorRedirect: true } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * Better Auth handles everything under /api/auth. Around it, this route adds what the portal needs
 * on top: the per-account lock-out and the audit of failed sign-ins, sign-outs and reset requests.
 */
export async function authRoutes(
  app: FastifyInstance,
  { auth, db, config, signInFailures }: AuthRoutesOptions,
) {
  // OAuth providers may post their callback as a form (Apple does); Better Auth parses it itself.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    config: { public: true },
    handler: async (request, reply) => {
      const path = (request.url.split("?")[0] ?? "").slice("/api/auth".length);
      const source = {
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? null,
        requestId: request.id,
      };
      const email = request.method === "POST" ? emailOf(request.body) : undefined;

      if (path === "/sign-in/email" && email) {
        const state = await signInFailures.get(email);
        if (state && state.consumedPoints >= config.signInMaxFailures) {
          const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
          await recordAudit(db, {
            action: "auth.sign_in",
            outcome: "rate_limited",
            actorEmail: email,
            ...source,
          });
          return reply
            .status(429)
            .header("retry-after", String(seconds))
            .send({
              code: "TOO_MANY_FAILED_ATTEMPTS",
              message: `Too many failed sign-in attempts for this account. Try again in ${seconds} seconds, or reset your password.`,
            });
        }
      }

      let signingOut: { userId: string; email: string } | undefined;
      if (path === "/sign-out") {
        const current = await auth.api.getSession({ headers: toWebHeaders(request) });
        if (current) signingOut = { userId: current.user.id, email: current.user.email };
      }

      // Two-step verification (decision 006): who is asking, before Better Auth changes anything.
      const twoFactorPath = path.startsWith("/two-factor/");
      let signedIn: AuthPerson | null = null;
      if (
        request.headers.cookie &&
        (twoFactorPath || !MFA_ENROLMENT_AUTH_PATHS.some((p) => path.startsWith(p)))
      ) {
        signedIn = await sessionPerson(auth, request);
      }
      if (signedIn && !twoFactorPath && mustEnrol(signedIn, config)) {
        return reply
          .status(403)
          .send({ code: MFA_ENROLLMENT_REQUIRED, message: MFA_ENROLLMENT_REQUIRED_MESSAGE });
      }
      if (
        path === "/two-factor/disable" &&
        signedIn &&
        requiresTwoFactor(signedIn.role, config.mfaRequiredRoles)
      ) {
        await recordAudit(db, {
          action: "auth.mfa.disabled",
          outcome: "denied",
          actorUserId: signedIn.userId,
          actorEmail: signedIn.email,
          ...source,
        });
        return reply.status(403).send({
          code: "MFA_REQUIRED_FOR_ROLE",
          message: "Your role requires two-step verification, so it cannot be turned off.",
        });
      }
      const secondStep = SECOND_STEP_PATHS[path];
      // The second step of a sign-in: the person is named by the pending two-factor cookie.
      const pending = secondStep && !signedIn ? await pendingPerson(auth, db, request) : null;

      // Each TOTP code works once (ASVS 5.0 6.5.1): its time step is taken before Better Auth checks it.
      const person = signedIn ?? pending;
      const code = path === "/two-factor/verify-totp" ? codeOf(request.body) : undefined;
      const claim = person && code ? await claimTotpCode(auth, db, person.userId, code) : undefined;
      if (claim?.status === "used") {
        await recordAudit(db, {
          action: "auth.mfa.verify",
          outcome: "denied",
          actorUserId: person!.userId,
          actorEmail: person!.email,
          details: { method: "totp", status: 401, code: TOTP_CODE_USED },
          ...source,
        });
        return reply.status(401).send({ code: TOTP_CODE_USED, message: TOTP_CODE_USED_MESSAGE });
      }

      const response = await auth.handler(toWebRequest(request, config.publicUrl));
      if (claim?.status === "claimed" && !response.ok) await claim.release();
      const answer = twoFactorPath || path === "/sign-in/email" ? await answerOf(response) : {};
      const outcome = response.ok ? "success" : response.status === 429 ? "rate_limited" : "failure";
      const failure = response.ok ? {} : { details: { status: response.status, code: answer.code ?? null } };

      if (path === "/sign-in/email" && response.ok && answer.twoFactorRedirect && email) {
        // Right password; the session waits for the code.
        const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        await recordAudit(db, {
          action: "auth.mfa.challenge",
          outcome: "success",
          actorUserId: user?.id ?? null,
          actorEmail: email,
          details: { method: "/sign-in/email" },
          ...source,
        });
      } else if (secondStep && !signedIn) {
        await recordAudit(db, {
          action: "auth.mfa.verify",
          outcome,
          actorUserId: pending?.userId ?? null,
          actorEmail: pending?.email ?? null,
          details: { method: secondStep, ...failure.details },
          ...source,
        });
        if (response.ok && pending) {
          await recordAudit(db, {
            action: "auth.sign_in",
            outcome: "success",
            actorUserId: pending.userId,
            actorEmail: pending.email,
            details: { method: path },
            ...source,
          });
        }
      } else if (twoFactorPath && signedIn) {
        const action =
          path === "/two-factor/enable"
            ? "auth.mfa.enrolment_started"
            : path === "/two-factor/disable"
              ? "auth.mfa.disabled"
              : path === "/two-factor/verify-totp" && !signedIn.twoFactorEnabled
                ? "auth.mfa.enabled"
                : path === "/two-factor/generate-backup-codes"
                  ? "auth.mfa.backup_codes_regenerated"
                  : secondStep
                    ? "auth.mfa.verify"
                    : null;
        if (action) {
          await recordAudit(db, {
            action,
            outcome,
            actorUserId: signedIn.userId,
            actorEmail: signedIn.email,
            ...(secondStep ? { details: { method: secondStep, ...failure.details } } : failure),
            ...source,
          });
        }
      }

      if (path === "/sign-in/email" && email) {
        if (response.status === 200) {
          await signInFailures.delete(email);
        } else {
          if (response.status === 401) await signInFailures.penalty(email, 1);
          await recordAudit(db, {
            action: "auth.sign_in",
            outcome: response.status === 429 ? "rate_limited" : "failure",
            actorEmail: email,
            details: { status: response.status },
            ...source,
          });
        }
      } else if (path === "/sign-out" && signingOut && response.ok) {
        await recordAudit(db, {
          action: "auth.sign_out",
          outcome: "success",
          actorUserId: signingOut.userId,
          actorEmail: signingOut.email,
          ...source,
        });
      } else if (path === "/request-password-reset" && email) {
        await recordAudit(db, {
          action: "auth.password_reset.requested",
          outcome: response.ok ? "success" : "failure",
          actorEmail: email,
          details: { status: response.status },
          ...source,
        });
      } else if (path === "/reset-password" && !response.ok) {
        await recordAudit(db, {
          action: "auth.password_reset.completed",
          outcome: "failure",
          details: { status: response.status },
          ...source,
        });
      } else if (path === "/sign-up/email" && !response.ok && email) {
        await recordAudit(db, {
          action: "auth.sign_up",
          outcome: "failure",
          actorEmail: email,
          details: { status: response.status },
          ...source,
        });
      }
      return sendWebResponse(reply, response);
    },
  });
}

async function sessionPerson(auth: Auth, request: FastifyRequest): Promise<AuthPerson | null> {
  const current = await auth.api.getSession({ headers: toWebHeaders(request) });
  if (!current) return null;
  return {
    userId: current.user.id,
    email: current.user.email,
    role: current.user.role ?? null,
    twoFactorEnabled: current.user.twoFactorEnabled === true,
  };
}

/**
 * Who the pending second step belongs to, for the audit and the single use of a TOTP code: Better Auth's
 * two-factor cookie names a verification row whose value is the user id. The cookie's signature is checked
 * by Better Auth itself; an answer other than "invalid cookie" means it was genuine (a code is only claimed
 * when it is that person's right code, and given back when Better Auth refuses).
 */
async function pendingPerson(
  auth: Auth,
  db: Database,
  request: FastifyRequest,
): Promise<{ userId: string; email: string } | null> {
  const cookie = (request.headers.cookie ?? "")
    .split(";")
    .map((c) => c.trim())
    .find((c) => /^(__Secure-)?portal\.two_factor=/.test(c));
  if (!cookie) return null;
  let value: string;
  try {
    value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
  } catch {
    return null;
  }
  const identifier = value.slice(0, value.lastIndexOf("."));
  if (!identifier.startsWith("2fa-")) return null;
  const ctx = await auth.$context;
  const verification = await ctx.internalAdapter.findVerificationValue(identifier);
  if (!verification) return null;
  const [user] = await db
    .select({ userId: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, verification.value));
  return user ?? null;
}
