import { ZErrorResponseSchema, ZSessionsRevokedResponseSchema, pathId } from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf } from "../admin/shared.ts";
import { signInAccountOf, type PersonTarget } from "../admin/sync.ts";
import type { Auth } from "../auth/auth.ts";
import type { Database } from "../db/client.ts";
import { requireRole } from "../plugins/authenticate.ts";
import { revokeAllSessionsOf } from "../sessions/sessions.ts";

export interface AdminSessionRoutesOptions {
  auth: Auth;
  db: Database;
}

const errors = {
  400: ZErrorResponseSchema,
  401: ZErrorResponseSchema,
  403: ZErrorResponseSchema,
  404: ZErrorResponseSchema,
};

const answer = (revoked: number) => ({
  message:
    revoked === 0
      ? "They were not signed in anywhere."
      : `Signed out of ${revoked} ${revoked === 1 ? "session" : "sessions"}. They must sign in again.`,
  revoked,
});

/**
 * Edit Client / Edit Employee: "Sign out everywhere" ends all of a person's sessions (Better Auth's own
 * /admin/revoke-user-sessions is off for the browser: it would skip the portal's audit trail). Admin only,
 * authorization before validation (401, 403, then 400); the access caches are cleared as for every write.
 */
export const adminSessionRoutes: FastifyPluginAsyncZod<AdminSessionRoutesOptions> = async (
  app,
  { auth, db },
) => {
  app.addHook("onRequest", requireRole("admin"));

  const revoke = async (target: PersonTarget, actor: ReturnType<typeof actorOf>) => {
    const userId = await signInAccountOf(db, target);
    const id = target.type === "client" ? target.cId : target.eId;
    return answer(await revokeAllSessionsOf(auth, db, { userId, type: target.type, id }, actor));
  };

  app.post(
    "/api/admin/revokesessionsclient/:c_id",
    {
      schema: {
        tags: ["clients"],
        params: z.object({ c_id: pathId("c_id") }),
        response: { 200: ZSessionsRevokedResponseSchema, ...errors },
      },
    },
    async (request) => revoke({ type: "client", cId: request.params.c_id as number }, actorOf(request)),
  );

  app.post(
    "/api/admin/revokesessionsemployee/:e_id",
    {
      schema: {
        tags: ["employees"],
        params: z.object({ e_id: pathId("e_id") }),
        response: { 200: ZSessionsRevokedResponseSchema, ...errors },
      },
    },
    async (request) => revoke({ type: "employee", eId: request.params.e_id as number }, actorOf(request)),
  );
};
