import {
  ZClientDelegatesResponseSchema,
  ZDelegateChangeRequestSchema,
  ZDelegateInviteRequestSchema,
  ZDelegateResponseSchema,
  ZMessageSchema,
  ZMyDelegatesResponseSchema,
  pathId,
} from "@portal/contracts";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Actor } from "../audit/actor.ts";
import type { Database } from "../db/client.ts";
import type { InvitationMailer } from "../invitations/mail.ts";
import { adminErrorResponses } from "../lib/error-responses.ts";
import { forbidden, type AppError } from "../lib/errors.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { changeDelegate, revokeDelegate } from "./delegate-changes.ts";
import { inviteDelegate, type DelegateInvite } from "./delegate-invites.ts";
import {
  clientById,
  clientOfUser,
  delegateNotFound,
  listDelegates,
  type Asker,
  type DelegationOwner,
} from "./delegations.ts";
import { clientsMayInvite } from "./policies.ts";

export interface DelegateRoutesOptions {
  db: Database;
  /** Invitation mail (D55): a delegate's link goes out after the transaction that made it commits. */
  invitations: InvitationMailer;
}

const errors = adminErrorResponses;
const delegateParams = z.object({ id: pathId("id") });
const clientParams = z.object({ c_id: pathId("c_id") });
const clientDelegateParams = z.object({ c_id: pathId("c_id"), id: pathId("id") });

/** Invites, mails the link after the commit and words the answer. */
async function invite(
  { db, invitations }: DelegateRoutesOptions,
  cId: number,
  body: DelegateInvite,
  asker: Asker,
  actor: Actor,
  log: FastifyBaseLogger,
) {
  const { delegate, invitation } = await inviteDelegate(db, cId, body, asker, actor, invitations.lifetimeMs);
  const mailed = await invitations.send(invitation, log);
  return {
    message: mailed
      ? `Invitation sent to ${delegate.name}.`
      : `${delegate.name} was added, but the invitation email could not be sent. Remove them and invite them again to send a new one.`,
    delegate,
  };
}

/**
 * A client's own delegates (issue 23): `GET|POST /api/me/delegates`, `PATCH|DELETE /api/me/delegates/{id}`.
 * Only a client (the role, with a client record) has delegates: anyone else is refused the list and the
 * invitation (403, before the body is read) and finds no delegate by id (404, as for another client's).
 * A delegate cannot see or invite anyone in the client's name.
 */
export const myDelegateRoutes: FastifyPluginAsyncZod<DelegateRoutesOptions> = async (app, options) => {
  const { db } = options;
  const owners = new WeakMap<FastifyRequest, DelegationOwner>();
  // The signed-in client's record, read before the body so authorization comes before validation.
  const ownClient = (refusal: () => AppError) => async (request: FastifyRequest) => {
    const principal = request.principal;
    const client = principal?.role === "client" ? await clientOfUser(db, principal.userId) : undefined;
    if (!client) throw refusal();
    owners.set(request, client);
  };
  const clientOf = (request: FastifyRequest) => owners.get(request)!;
  const onlyClients = [
    requireRole("client"),
    ownClient(() => forbidden("Only clients can see or invite people to view their workbooks.")),
  ];
  const ownDelegate = ownClient(delegateNotFound);

  app.get(
    "/api/me/delegates",
    {
      onRequest: onlyClients,
      schema: { tags: ["delegates"], response: { 200: ZMyDelegatesResponseSchema, ...errors } },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return {
        canInvite: await clientsMayInvite(db),
        delegates: await listDelegates(db, clientOf(request).cId),
      };
    },
  );

  app.post(
    "/api/me/delegates",
    {
      onRequest: onlyClients,
      schema: {
        tags: ["delegates"],
        body: ZDelegateInviteRequestSchema,
        response: { 201: ZDelegateResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const cId = clientOf(request).cId;
      const answer = await invite(options, cId, request.body, "client", actorOf(request), request.log);
      return reply.status(201).send(answer);
    },
  );

  app.patch(
    "/api/me/delegates/:id",
    {
      onRequest: ownDelegate,
      schema: {
        tags: ["delegates"],
        params: delegateParams,
        body: ZDelegateChangeRequestSchema,
        response: { 200: ZDelegateResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { cId } = clientOf(request);
      const id = request.params.id as number;
      const delegate = await changeDelegate(db, cId, id, request.body, "client", actorOf(request));
      return { message: `${delegate.name}'s access was updated.`, delegate };
    },
  );

  app.delete(
    "/api/me/delegates/:id",
    {
      onRequest: ownDelegate,
      schema: { tags: ["delegates"], params: delegateParams, response: { 200: ZMessageSchema, ...errors } },
    },
    async (request) => {
      const { cId } = clientOf(request);
      const removed = await revokeDelegate(db, cId, request.params.id as number, actorOf(request));
      return { message: `${removed.name} can no longer view your workbooks.` };
    },
  );
};

/**
 * The back office's view of a client's delegates: list, invite (also while clients may not invite
 * themselves) and remove. Admin only: 401 without a session, 403 for any other role, before anything is read.
 */
export const adminDelegateRoutes: FastifyPluginAsyncZod<DelegateRoutesOptions> = async (app, options) => {
  const { db } = options;
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/api/admin/clients/:c_id/delegates",
    {
      schema: {
        tags: ["delegates"],
        params: clientParams,
        response: { 200: ZClientDelegatesResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const client = await clientById(db, request.params.c_id as number);
      reply.header("cache-control", "no-store");
      return listDelegates(db, client.cId);
    },
  );

  app.post(
    "/api/admin/clients/:c_id/delegates",
    {
      schema: {
        tags: ["delegates"],
        params: clientParams,
        body: ZDelegateInviteRequestSchema,
        response: { 201: ZDelegateResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const cId = request.params.c_id as number;
      const answer = await invite(options, cId, request.body, "admin", actorOf(request), request.log);
      return reply.status(201).send(answer);
    },
  );

  app.delete(
    "/api/admin/clients/:c_id/delegates/:id",
    {
      schema: {
        tags: ["delegates"],
        params: clientDelegateParams,
        response: { 200: ZMessageSchema, ...errors },
      },
    },
    async (request) => {
      const client = await clientById(db, request.params.c_id as number);
      const removed = await revokeDelegate(db, client.cId, request.params.id as number, actorOf(request));
      return { message: `${removed.name} can no longer view ${client.name}'s workbooks.` };
    },
  );
};
