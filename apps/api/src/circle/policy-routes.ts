import { ZDelegationSettingSchema, ZErrorResponseSchema } from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../audit/actor.ts";
import type { Database } from "../db/client.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { delegationSetting, saveDelegationSetting } from "./policies.ts";

const errors = { 400: ZErrorResponseSchema, 401: ZErrorResponseSchema, 403: ZErrorResponseSchema };

/** "Clients may invite people to view their workbooks" on /admin/settings (issue 23). Admin only. */
export const delegationPolicyRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  // Authorization before anything is read: 401, 403, then the body (CODE_STYLE).
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/api/admin/settings/delegation",
    { schema: { tags: ["settings"], response: { 200: ZDelegationSettingSchema, ...errors } } },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return delegationSetting(db);
    },
  );

  app.put(
    "/api/admin/settings/delegation",
    {
      schema: {
        tags: ["settings"],
        body: ZDelegationSettingSchema,
        response: { 200: ZDelegationSettingSchema, ...errors },
      },
    },
    async (request) => saveDelegationSetting(db, request.body, actorOf(request)),
  );
};
