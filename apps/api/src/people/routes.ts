import {
  ZMessageSchema,
  ZSessionsRevokedResponseSchema,
  ZSyncRetryResponseSchema,
  ZTwoFactorResetResponseSchema,
  pathId,
  type TEmbedData,
} from "@portal/contracts";
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { embedIdentityForUser } from "../access/embed-identity.ts";
import { actorOf, auditActor, type Actor } from "../audit/actor.ts";
import { setPageHeaders } from "../lib/paging.ts";
import { resetPersonTwoFactor, retryFailedSync } from "../outbox/sync-status.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Auth } from "../auth/auth.ts";
import type { Database } from "../db/client.ts";
import type { InvitationMailer } from "../invitations/mail.ts";
import { AppError } from "../lib/errors.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { revokeAllSessionsOf } from "../sessions/sessions.ts";
import type { Embedder } from "../sigma/embedder.ts";
import { personKinds, type PersonKind } from "./kinds.ts";
import { listPeople } from "./lists.ts";
import { addPerson, deletePerson, editPerson } from "./people.ts";
import { findPerson } from "./records.ts";
import { adminErrorResponses } from "../lib/error-responses.ts";

/** The registration frame's embed session (it is loaded once, hidden, in the admin's browser). */
const REGISTRATION_SESSION_MS = 5 * 60_000;
export interface PeopleRoutesOptions {
  auth: Auth;
  db: Database;
  embedder: Embedder;
  /** "Send an invitation" on Add Client / Add Employee (D55); without it, `invite: true` is refused. */
  invitations?: InvitationMailer | undefined;
}

const errors = adminErrorResponses;

/**
 * The back office's routes for clients and employees, with the spec's exact paths, methods, field names
 * and messages (spec §7), registered once for each kind from its `PersonKind`: the list, Add, Edit, Delete,
 * and the person's Sigma sync retry, two-step reset and "Sign out everywhere". Admin only: 401 without a
 * session or bearer token, 403 for any other role, before the body is parsed or validated.
 */
export const peopleRoutes: FastifyPluginAsyncZod<PeopleRoutesOptions> = async (app, options) => {
  app.addHook("onRequest", requireRole("admin"));
  for (const kind of personKinds) personRoutes(app, kind as PersonKind, options);
};

function personRoutes(
  app: FastifyInstance,
  kind: PersonKind,
  { auth, db, embedder, invitations }: PeopleRoutesOptions,
) {
  const { words, schemas } = kind;
  const tags = [`${kind.kind}s`];
  const params = z.object({ [words.idParam]: pathId(words.idParam) });
  const idOf = (request: { params: unknown }) => (request.params as Record<string, number>)[words.idParam]!;
  const route = app.withTypeProvider<ZodTypeProvider>();

  route.get(
    words.paths.list,
    {
      schema: {
        tags,
        querystring: schemas.listQuery,
        response: { 200: z.array(schemas.row as z.ZodType<object>), ...errors },
      },
    },
    async (request, reply) => {
      const query = request.query as { q?: string; sort: string; limit: number; offset: number };
      const page = await listPeople(db, kind, query);
      setPageHeaders(request, reply, { total: page.total, limit: query.limit, offset: query.offset });
      return page.rows;
    },
  );

  route.post(
    words.paths.add,
    { schema: { tags, body: schemas.addBody, response: { 201: schemas.addResponse, ...errors } } },
    async (request, reply) => {
      const actor = actorOf(request);
      const body = request.body as { invite?: boolean; password?: unknown };
      // "Send an invitation" (D55): no password; a single-use link for the person to choose one.
      const invite = body.invite === true;
      if (invite && !invitations) throw new AppError(400, "Invitations are not available.", "INVALID_INPUT");
      const password = invite ? null : (body.password as string);
      const added = await addPerson(db, kind, kind.readAdd(request.body as never), password, actor, {
        ...(invitations && { inviteLifetimeMs: invitations.lifetimeMs }),
      });
      // An invited person is registered in the BI service through the outbox; no embed until they accept.
      const embed = added.invitation
        ? { embedUrl: null }
        : await registrationEmbed({ db, embedder }, added.userId, actor);
      const mailed = added.invitation && (await invitations!.send(added.invitation, request.log));
      const registered = `${words.noun} registered successfully!`;
      const message = !added.invitation
        ? registered
        : mailed
          ? `${registered} An invitation was sent to ${added.invitation.person.email}.`
          : `${registered} The invitation email could not be sent; use Resend on the list.`;
      return reply.status(201).send({ message, data: { [kind.kind]: added.person, embed } });
    },
  );

  route.put(
    words.paths.edit,
    { schema: { tags, body: schemas.edit, response: { 200: schemas.mutationResponse, ...errors } } },
    async (request) => ({
      message: `${words.noun} updated successfully!`,
      data: await editPerson(db, kind, kind.readEdit(request.body as never), actorOf(request)),
    }),
  );

  route.delete(
    `${words.paths.remove}/:${words.idParam}`,
    { schema: { tags, params, response: { 200: ZMessageSchema, ...errors } } },
    async (request) => {
      await deletePerson(db, kind, idOf(request), actorOf(request));
      return { message: `${words.noun} deleted.` };
    },
  );

  // Retry on the lists and edit screens: the person's failed changes go to the BI service again.
  route.post(
    `${words.paths.resync}/:${words.idParam}`,
    { schema: { tags, params, response: { 200: ZSyncRetryResponseSchema, ...errors } } },
    async (request) => {
      const requeued = await retryFailedSync(db, kind, idOf(request), actorOf(request));
      return { message: requeued > 0 ? "Sync retry queued." : "Nothing to retry.", requeued };
    },
  );

  // After a lost authenticator (decision 006): the person's two-step verification is removed, their
  // sessions end, and where their role requires it they set it up again at the next sign-in.
  route.post(
    `${words.paths.resetTwoFactor}/:${words.idParam}`,
    { schema: { tags, params, response: { 200: ZTwoFactorResetResponseSchema, ...errors } } },
    async (request) => {
      const reset = await resetPersonTwoFactor(db, kind, idOf(request), actorOf(request));
      return {
        message: reset
          ? "Two-step verification was reset. They set it up again at their next sign-in."
          : "Two-step verification is not set up.",
        reset,
      };
    },
  );

  // "Sign out everywhere" on the edit page: every session of the person ends (Better Auth's own
  // /admin/revoke-user-sessions is off for the browser: it would skip the portal's audit trail).
  route.post(
    `${words.paths.revokeSessions}/:${words.idParam}`,
    { schema: { tags, params, response: { 200: ZSessionsRevokedResponseSchema, ...errors } } },
    async (request) => {
      const personId = idOf(request);
      const { userId } = await findPerson(db, kind, personId);
      const revoked = await revokeAllSessionsOf(
        auth,
        db,
        { userId, kind: kind.kind, id: personId },
        actorOf(request),
      );
      return {
        message:
          revoked === 0
            ? "They were not signed in anywhere."
            : `Signed out of ${revoked} ${revoked === 1 ? "session" : "sessions"}. They must sign in again.`,
        revoked,
      };
    },
  );
}

/**
 * A one-time embed URL for a newly registered person: the spec's hidden frame loads it so the BI
 * service creates the embed user (with the complete team list) before anyone views a workbook.
 * Nobody to register yet (no workbook assigned) → null, and the form goes straight to the list.
 */
async function registrationEmbed(
  { db, embedder }: Pick<PeopleRoutesOptions, "db" | "embedder">,
  userId: string,
  actor: Actor,
): Promise<TEmbedData> {
  const identity = await embedIdentityForUser(db, userId);
  const first = identity?.workbooks[0];
  if (!identity || !first) return { embedUrl: null };
  // The frame only has to load once, in the admin's browser: a five-minute session, not a reading one.
  const minted = await embedder.mint(identity.user, first.workbookName, {
    notAfter: new Date(Date.now() + REGISTRATION_SESSION_MS),
  });
  await recordAudit(db, {
    action: "embed.issued",
    outcome: "success",
    targetType: "workbook",
    targetId: String(first.id),
    details: {
      purpose: "registration",
      embedUser: identity.user.email,
      clientIds: identity.clientIds,
      workbook: first.workbookName,
      jti: minted.jti,
      expiresAt: minted.expiresAt.toISOString(),
    },
    ...auditActor(actor),
  });
  return { embedUrl: minted.url };
}
