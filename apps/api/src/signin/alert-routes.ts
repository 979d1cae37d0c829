import { ZErrorResponseSchema, ZNotMeRequestSchema, ZNotMeResponseSchema } from "@portal/contracts";
import { and, eq, gt, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import type { Auth } from "../auth/auth.ts";
import { perAddressLimit } from "../auth/ip-limits.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { knownDevices, users, verifications } from "../db/schema.ts";
import { AppError } from "../lib/errors.ts";
import type { SharedStore } from "../lib/redis.ts";
import { inAuthTransaction } from "../sessions/sessions.ts";
import { describeUserAgent } from "../sessions/user-agent.ts";
import { notMeIdentifier, type NotMeLink } from "./new-device.ts";

export interface SignInAlertRoutesOptions {
  auth: Auth;
  db: Database;
  config: AppConfig;
  /** REDIS_URL: the per-address limit is shared by every instance (decision 009). */
  shared?: SharedStore | undefined;
}

const LINK_INVALID =
  "This link can no longer be used: it was used already or it has expired. If you still think someone else signed in to your account, choose a new password with Reset Password on the sign-in page.";

const linkRefused = () => new AppError(400, LINK_INVALID, "NOT_ME_LINK_INVALID");

function parseLink(value: string): NotMeLink | null {
  try {
    const link = JSON.parse(value) as Partial<NotMeLink> | null;
    return typeof link?.userId === "string" && typeof link.deviceId === "string"
      ? { userId: link.userId, deviceId: link.deviceId }
      : null;
  } catch {
    return null;
  }
}

/**
 * "This wasn't me", in one transaction: the link is used up (a conditional DELETE, so two presses act once),
 * every session of the account ends with Better Auth's own adapter, the browser of the alert is forgotten (a
 * later sign-in from it alerts again) and the audit row is written; or nothing at all.
 */
async function endEverySession(auth: Auth, db: Database, token: string, source: AuditSource) {
  return inAuthTransaction(auth, db, async (tx, sessions) => {
    const [claimed] = await tx
      .delete(verifications)
      .where(
        and(eq(verifications.identifier, notMeIdentifier(token)), gt(verifications.expiresAt, sql`now()`)),
      )
      .returning({ value: verifications.value });
    const link = claimed ? parseLink(claimed.value) : null;
    const [person] = link
      ? await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, link.userId))
      : [];
    if (!link || !person) throw linkRefused();
    const live = (await sessions.listSessions(person.id)).filter(
      (s) => new Date(s.expiresAt).getTime() > Date.now(),
    );
    await sessions.deleteUserSessions(person.id);
    const [device] = await tx
      .delete(knownDevices)
      .where(and(eq(knownDevices.userId, person.id), eq(knownDevices.deviceId, link.deviceId)))
      .returning({ userAgent: knownDevices.userAgent });
    const { browser, os } = describeUserAgent(device?.userAgent);
    await recordAudit(tx, {
      action: "auth.not_me",
      outcome: "success",
      actorUserId: person.id,
      actorEmail: person.email,
      targetType: "user",
      targetId: person.id,
      details: { revoked: live.length, alertedBrowser: browser, alertedOs: os },
      ip: source.ip ?? null,
      userAgent: source.userAgent ?? null,
      requestId: source.requestId ?? null,
    });
    return person;
  });
}

/**
 * `POST /api/auth-alerts/not-me` (public: the emailed link's token is the proof; issue 24). The mailed link
 * opens the SPA's /not-me page, which changes nothing until its button posts here, so a mail scanner that
 * opens links ends no session. Ends every session of the account (the access caches are cleared on every
 * instance, as for any unsafe method) and then starts Better Auth's own password reset, whose mail and
 * single-use link are those of Reset Password. Each address may make AUTH_IP_LIMIT_PER_MINUTE calls a minute,
 * counted before the body is read, like the invitation page's; a refusal is audited.
 */
export const signInAlertRoutes: FastifyPluginAsyncZod<SignInAlertRoutesOptions> = async (
  app,
  { auth, db, config, shared },
) => {
  app.addHook("onRequest", perAddressLimit(db, shared, "not-me-ip", config.authIpLimitPerMinute));

  app.post(
    "/api/auth-alerts/not-me",
    {
      config: { public: true },
      schema: {
        tags: ["sign-in alerts"],
        body: ZNotMeRequestSchema,
        response: { 200: ZNotMeResponseSchema, 400: ZErrorResponseSchema, 429: ZErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const source = {
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? null,
        requestId: request.id,
      };
      let person: { id: string; email: string };
      try {
        person = await endEverySession(auth, db, request.body.token, source);
      } catch (error) {
        if (error instanceof AppError && error.code === "NOT_ME_LINK_INVALID") {
          await recordAudit(db, {
            action: "auth.not_me",
            outcome: "failure",
            details: { reason: "link" },
            ...source,
          });
        }
        throw error;
      }
      try {
        // The reset page the sign-in page's Reset Password also names; its mail goes out after this answer.
        await auth.api.requestPasswordReset({
          body: { email: person.email, redirectTo: `${config.publicUrl}/reset-password` },
        });
      } catch (error) {
        // The sessions have ended; Reset Password on the sign-in page still works.
        request.log.error({ err: error }, "the password reset after 'This wasn't me' could not be started");
      }
      return reply.header("cache-control", "no-store").send({ ok: true });
    },
  );
};
