import type { FastifyInstance } from "fastify";
import { RateLimiterMemory } from "rate-limiter-flexible";
import type { Auth } from "../auth/auth.ts";
import { recordAudit } from "../audit/audit.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
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

      const response = await auth.handler(toWebRequest(request, config.publicUrl));

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
