import { ZProvisionAndEmbedRequestSchema, ZProvisionAndEmbedResponseSchema, pathId } from "@portal/contracts";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { embedIdentityForUser } from "../access/embed-identity.ts";
import { actorOf, auditActor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { clients } from "../db/schema.ts";
import { adminErrorResponses as errors } from "../lib/error-responses.ts";
import { notFound } from "../lib/errors.ts";
import { requireRole } from "../plugins/authenticate.ts";
import type { Embedder } from "../sigma/embedder.ts";

/** View as client: an admin sees exactly what a client sees, read-only (issue 12, D48). Admin only. */
export const viewAsClientRoutes: FastifyPluginAsyncZod<{ db: Database; embedder: Embedder }> = async (
  app,
  { db, embedder },
) => {
  // Before the body is parsed or validated (authorization before validation): 401, then 403, then 400.
  app.addHook("onRequest", requireRole("admin"));

  app.post(
    "/api/admin/viewasclient/:c_id",
    {
      schema: {
        tags: ["clients"],
        params: z.object({ c_id: pathId("c_id") }),
        body: ZProvisionAndEmbedRequestSchema.omit({ clientId: true }),
        response: { 200: ZProvisionAndEmbedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const cId = request.params.c_id;
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
};
