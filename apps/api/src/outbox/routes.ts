import {
  ZSyncItemSchema,
  ZSyncListQuerySchema,
  ZSyncOverviewSchema,
  ZSyncRetryResponseSchema,
} from "@portal/contracts";
import type { SigmaRestClient } from "@portal/sigma";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../audit/actor.ts";
import type { Database } from "../db/client.ts";
import { adminErrorResponses as errors } from "../lib/error-responses.ts";
import { setPageHeaders } from "../lib/paging.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { listSync, retryAllFailedSync, retrySyncItem, syncOverview } from "./sync-status.ts";

/**
 * BI sync (/admin/sync): every change not yet delivered to the BI service, or refused by it. Admin only.
 * `biClient` is the BI service's REST API (its reachability on the page).
 */
export const syncRoutes: FastifyPluginAsyncZod<{ db: Database; biClient: SigmaRestClient }> = async (
  app,
  { db, biClient },
) => {
  // Before the body is parsed or validated (authorization before validation): 401, then 403, then 400.
  app.addHook("onRequest", requireRole("admin"));

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
};
