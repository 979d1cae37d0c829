import {
  ZAcceptInvitationRequestSchema,
  ZAcceptInvitationResponseSchema,
  ZErrorResponseSchema,
  ZInvitationActionResponseSchema,
  ZPersonKindSchema,
  ZInvitationLookupRequestSchema,
  ZInvitationLookupResponseSchema,
  pathId,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { hasPassword } from "../accounts/accounts.ts";
import { actorOf, auditActor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Auth } from "../auth/auth.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { invitedPerson, resendInvitation, revokeInvitation } from "./invitations.ts";
import { acceptInvitation, lookupInvitation } from "./links.ts";
import type { InvitationMailer } from "./mail.ts";
import { perAddressLimit } from "../auth/ip-limits.ts";
import { AppError } from "../lib/errors.ts";
import type { SharedStore } from "../lib/redis.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { adminErrorResponses } from "../lib/error-responses.ts";
import { effectiveSignInPolicy } from "../signin/policy.ts";

export interface InvitationRoutesOptions {
  auth: Auth;
  db: Database;
  config: AppConfig;
  invitations: InvitationMailer;
  /** REDIS_URL: the per-address limit of the public calls is shared by every instance (decision 009). */
  shared?: SharedStore | undefined;
}

const errors = {
  ...adminErrorResponses,
  410: ZErrorResponseSchema,
  429: ZErrorResponseSchema,
};

const personParams = z.object({ kind: ZPersonKindSchema, id: pathId("id") });
const noStore = { "cache-control": "no-store" };

/**
 * The invitation page's two calls (public: the person has no session yet; the link's token is the proof).
 * Tokens travel in the body, never the path, and answers are not cached. Each address may make
 * AUTH_IP_LIMIT_PER_MINUTE of them a minute, counted before the body is read, like the sign-in's limit;
 * a refusal is audited.
 */
export const invitationRoutes: FastifyPluginAsyncZod<InvitationRoutesOptions> = async (
  app,
  { db, config, shared },
) => {
  app.addHook("onRequest", perAddressLimit(db, shared, "invitation-ip", config.authIpLimitPerMinute));

  app.post(
    "/api/invitations/lookup",
    {
      config: { public: true },
      schema: {
        tags: ["invitations"],
        body: ZInvitationLookupRequestSchema,
        response: { 200: ZInvitationLookupResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .headers(noStore)
        .send(
          await lookupInvitation(
            db,
            request.body.token,
            (await effectiveSignInPolicy(db, config)).requiredRoles,
          ),
        ),
  );

  app.post(
    "/api/invitations/accept",
    {
      config: { public: true },
      schema: {
        tags: ["invitations"],
        body: ZAcceptInvitationRequestSchema,
        response: { 200: ZAcceptInvitationResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { email, twoStepRequired, passwordSet, invitedBy } = await acceptInvitation(
        db,
        request.body,
        (await effectiveSignInPolicy(db, config)).requiredRoles,
        { ip: request.ip, userAgent: request.headers["user-agent"] ?? null, requestId: request.id },
      );
      // A delegate who already signs in keeps their password and signs in with it (issue 23).
      const message = passwordSet
        ? "Your password is set. Signing you in..."
        : `Invitation accepted. Sign in with your password to view ${invitedBy ? `${invitedBy}'s` : "the shared"} workbooks.`;
      return reply.headers(noStore).send({ message, email, twoStepRequired });
    },
  );
};

/**
 * The admin's side: Resend and Revoke on the lists, and a password-reset email from Edit Client / Edit
 * Employee. Admin only, authorization before validation (401, 403, then 400), audited.
 */
export const adminInvitationRoutes: FastifyPluginAsyncZod<InvitationRoutesOptions> = async (
  app,
  { auth, db, config, invitations },
) => {
  app.addHook("onRequest", requireRole("admin"));

  app.post(
    "/api/admin/invitations/:kind/:id/resend",
    {
      schema: {
        tags: ["invitations"],
        params: personParams,
        response: { 200: ZInvitationActionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { kind, id } = request.params;
      const issued = await resendInvitation(db, kind, id as number, invitations.lifetimeMs, actorOf(request));
      const mailed = await invitations.send(issued, request.log);
      return {
        message: mailed
          ? `A new invitation was sent to ${issued.person.email}. The previous link no longer works.`
          : "A new invitation link was made, but the email could not be sent. Try Resend again later.",
        invitation: issued.state,
      };
    },
  );

  app.delete(
    "/api/admin/invitations/:kind/:id",
    {
      schema: {
        tags: ["invitations"],
        params: personParams,
        response: { 200: ZInvitationActionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { kind, id } = request.params;
      const state = await revokeInvitation(db, kind, id as number, actorOf(request));
      return { message: "The invitation was revoked. Its link no longer works.", invitation: state };
    },
  );

  // Better Auth's own reset flow (the same link and mail as "Reset Password" on the sign-in page), started
  // for the person by an admin.
  app.post(
    "/api/admin/password-reset/:kind/:id",
    {
      schema: {
        tags: ["invitations"],
        params: personParams,
        response: { 200: ZInvitationActionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { kind, id } = request.params;
      const actor = actorOf(request);
      const person = await invitedPerson(db, kind, id as number);
      if (!(await hasPassword(db, person.userId))) {
        throw new AppError(
          409,
          `${person.firstName} ${person.lastName} has not chosen a password yet. Resend their invitation instead.`,
          "INVITATION_PENDING",
        );
      }
      await auth.api.requestPasswordReset({
        body: { email: person.email, redirectTo: `${config.publicUrl}/reset-password` },
      });
      await recordAudit(db, {
        action: "user.password_reset_sent",
        outcome: "success",
        targetType: kind,
        targetId: String(id),
        details: { email: person.email },
        ...auditActor(actor),
      });
      return { message: `A password reset email was sent to ${person.email}.`, invitation: null };
    },
  );
};
