import { ZErrorResponseSchema, ZSignInPolicySchema } from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../audit/actor.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { saveSignInPolicy, signInPolicySetting } from "./policy.ts";

const errors = { 400: ZErrorResponseSchema, 401: ZErrorResponseSchema, 403: ZErrorResponseSchema };

/** The PUT body: the roles are a set, so a role listed twice is refused rather than quietly merged. */
const ZSignInPolicyBodySchema = ZSignInPolicySchema.refine(
  ({ mfaRequiredRoles }) => new Set(mfaRequiredRoles).size === mfaRequiredRoles.length,
  { message: "Each role may be listed only once.", path: ["mfaRequiredRoles"] },
);

/**
 * "Require two-step verification for" and "Allow a six-digit code by email as the second step" on
 * /admin/settings (issue 24). Admin only; until first saved, MFA_REQUIRED_ROLES decides what GET shows.
 */
export const signInPolicyRoutes: FastifyPluginAsyncZod<{
  db: Database;
  config: Pick<AppConfig, "mfaRequiredRoles">;
}> = async (app, { db, config }) => {
  // Authorization before anything is read: 401, 403, then the body (CODE_STYLE).
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/api/admin/settings/sign-in",
    { schema: { tags: ["settings"], response: { 200: ZSignInPolicySchema, ...errors } } },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return signInPolicySetting(db, config);
    },
  );

  app.put(
    "/api/admin/settings/sign-in",
    {
      schema: {
        tags: ["settings"],
        body: ZSignInPolicyBodySchema,
        response: { 200: ZSignInPolicySchema, ...errors },
      },
    },
    async (request) => saveSignInPolicy(db, config, request.body, actorOf(request)),
  );
};
