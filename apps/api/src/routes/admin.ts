import {
  ZMessageSchema,
  ZWorkbookInputSchema,
  ZWorkbookListQuerySchema,
  ZWorkbookMutationResponseSchema,
  ZWorkbookSchema,
  ZSyncItemSchema,
  ZSyncListQuerySchema,
  ZSyncOverviewSchema,
  ZSyncRetryResponseSchema,
  ZProvisionAndEmbedRequestSchema,
  ZProvisionAndEmbedResponseSchema,
  pathId,
} from "@portal/contracts";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { embedIdentityForUser } from "../access/embed-identity.ts";
import { actorOf, auditActor, setPageHeaders } from "../admin/shared.ts";
import { adminAuditRoutes } from "./admin-audit.ts";
import { adminImportRoutes } from "./admin-import.ts";
import { listSync, retryAllFailedSync, retrySyncItem, syncOverview } from "../admin/sync.ts";
import { addWorkbook, deleteWorkbook, editWorkbook, listWorkbooks } from "../admin/workbooks.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { clients } from "../db/schema.ts";
import { notFound } from "../lib/errors.ts";
import { requireRole } from "../plugins/authenticate.ts";
import type { Embedder } from "../sigma/embedder.ts";
import type { InvitationMailer } from "../invitations/mail.ts";
import type { SigmaRestClient } from "@portal/sigma";
import { adminErrorResponses } from "../lib/error-responses.ts";

const idParam = (name: string) => z.object({ [name]: pathId(name) });

const errors = adminErrorResponses;

export interface AdminRoutesOptions {
  db: Database;
  embedder: Embedder;
  /** The BI service's REST API (its reachability on /admin/sync). */
  biClient: SigmaRestClient;
  /** "Send an invitation" on Add Client / Add Employee (D55); without it, `invite: true` is refused. */
  invitations?: InvitationMailer;
}

/**
 * The back office API, with the spec's exact paths, methods and field names (spec §7). Admin only:
 * 401 without a session or bearer token, 403 for any other role.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (
  app,
  { db, embedder, biClient, invitations },
) => {
  // Before the body is parsed or validated (authorization before validation): 401, then 403, then 400.
  app.addHook("onRequest", requireRole("admin"));
  // The audit log (/admin/audit), behind the same role gate.
  await app.register(adminAuditRoutes, { db });
  // CSV import of clients and employees (decision 013), behind the same role gate.
  await app.register(adminImportRoutes, { db, canInvite: invitations !== undefined });

  // ---- Lists ----

  app.get(
    "/api/admin/workbooks",
    {
      schema: {
        tags: ["workbooks"],
        querystring: ZWorkbookListQuerySchema,
        response: { 200: z.array(ZWorkbookSchema), ...errors },
      },
    },
    async (request, reply) => {
      const page = await listWorkbooks(db, request.query);
      setPageHeaders(request, reply, {
        total: page.total,
        limit: request.query.limit,
        offset: request.query.offset,
      });
      return page.rows;
    },
  );

  // ---- View as client: an admin sees exactly what a client sees, read-only (issue 12, D48) ----

  app.post(
    "/api/admin/viewasclient/:c_id",
    {
      schema: {
        tags: ["clients"],
        params: idParam("c_id"),
        body: ZProvisionAndEmbedRequestSchema,
        response: { 200: ZProvisionAndEmbedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const cId = request.params.c_id as number;
      const [client] = await db
        .select({ userId: clients.userId, clientId: clients.clientId })
        .from(clients)
        .where(eq(clients.cId, cId));
      if (!client) throw notFound("Client not found.");
      const identity = await embedIdentityForUser(db, client.userId);
      const workbook = identity?.workbooks.find((w) => w.workbookName === request.body.workbookId);
      if (!identity || !workbook) throw notFound("This workbook is not assigned to the client.");
      // Exactly the claims of the client's own embed (decision 017): claims belong to the Sigma user, so
      // anything else would rewrite the client's account type, teams or attributes in Sigma.
      const minted = await embedder.mint(identity.user, workbook.workbookName, {
        notAfter: new Date(request.principal!.sessionExpiresAt),
      });
      await recordAudit(db, {
        action: "embed.view_as",
        outcome: "success",
        targetType: "client",
        targetId: String(cId),
        details: {
          clientId: client.clientId,
          embedUser: identity.user.email,
          claims: identity.user.managedInSigma ? "managed in Sigma" : "the client's own",
          workbook: workbook.workbookName,
          jti: minted.jti,
          expiresAt: minted.expiresAt.toISOString(),
        },
        ...auditActor(actor),
      });
      return reply.header("cache-control", "no-store").send({ embedUrl: minted.url });
    },
  );

  // ---- BI sync (/admin/sync): every change not yet delivered to the BI service, or refused by it ----

  app.get(
    "/api/admin/sync",
    {
      schema: {
        tags: ["sync"],
        querystring: ZSyncListQuerySchema,
        response: { 200: z.array(ZSyncItemSchema), ...errors },
      },
    },
    async (request, reply) => {
      const page = await listSync(db, request.query);
      setPageHeaders(request, reply, {
        total: page.total,
        limit: request.query.limit,
        offset: request.query.offset,
      });
      return page.items;
    },
  );
  app.get(
    "/api/admin/sync/status",
    { schema: { tags: ["sync"], response: { 200: ZSyncOverviewSchema, ...errors } } },
    async () => syncOverview(db, biClient),
  );
  app.post(
    "/api/admin/sync/retry-failed",
    { schema: { tags: ["sync"], response: { 200: ZSyncRetryResponseSchema, ...errors } } },
    async (request) => {
      const requeued = await retryAllFailedSync(db, actorOf(request));
      return {
        message: requeued > 0 ? `${requeued} failed changes queued again.` : "Nothing to retry.",
        requeued,
      };
    },
  );
  app.post(
    "/api/admin/sync/:id/retry",
    {
      schema: {
        tags: ["sync"],
        params: z.object({ id: z.uuid({ error: "id must be the id of a change on /admin/sync." }) }),
        response: { 200: ZSyncRetryResponseSchema, ...errors },
      },
    },
    async (request) => {
      await retrySyncItem(db, request.params.id, actorOf(request));
      return { message: "Sync retry queued.", requeued: 1 };
    },
  );

  // ---- Workbooks ----

  app.post(
    "/api/admin/addworkbook",
    {
      schema: {
        tags: ["workbooks"],
        body: ZWorkbookInputSchema,
        response: { 201: ZWorkbookMutationResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: "Workbook added successfully.",
        data: await addWorkbook(db, request.body, actorOf(request)),
      }),
  );

  const editWorkbookRoute = {
    schema: {
      tags: ["workbooks"],
      params: idParam("id"),
      body: ZWorkbookInputSchema,
      response: { 200: ZWorkbookMutationResponseSchema, ...errors },
    },
  };
  const editWorkbookHandler = async (
    request: {
      params: Record<string, unknown>;
      body: z.output<typeof ZWorkbookInputSchema>;
    } & Parameters<typeof actorOf>[0],
  ) => ({
    message: "Workbook updated successfully.",
    data: await editWorkbook(db, request.params.id as number, request.body, actorOf(request)),
  });
  app.put("/api/admin/editworkbook/:id", editWorkbookRoute, editWorkbookHandler);
  // The spec's path has no /api prefix (spec §7); it is served too, behind the same guard and role gate.
  app.put(
    "/workbooks/editworkbook/:id",
    { ...editWorkbookRoute, config: { protected: true } },
    editWorkbookHandler,
  );

  app.delete(
    "/api/admin/deleteworkbook/:id",
    { schema: { tags: ["workbooks"], params: idParam("id"), response: { 200: ZMessageSchema, ...errors } } },
    async (request) => {
      await deleteWorkbook(db, request.params.id as number, actorOf(request));
      return { message: "Workbook deleted." };
    },
  );
};
