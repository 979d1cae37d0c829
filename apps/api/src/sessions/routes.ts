import {
  ZErrorResponseSchema,
  ZSessionIdParamsSchema,
  ZSessionListResponseSchema,
  ZSessionsRevokedResponseSchema,
} from "@portal/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Auth } from "../auth/auth.ts";
import type { Database } from "../db/client.ts";
import { listOwnSessions, revokeOtherSessions, revokeOwnSession, type SessionOwner } from "./sessions.ts";

export interface SessionRoutesOptions {
  auth: Auth;
  db: Database;
}

const errors = { 400: ZErrorResponseSchema, 401: ZErrorResponseSchema, 404: ZErrorResponseSchema };

const ownerOf = (request: FastifyRequest): SessionOwner => ({
  userId: request.principal!.userId,
  email: request.principal!.email,
  sessionId: request.principal!.sessionId,
});

const sourceOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers["user-agent"] ?? null,
  requestId: request.id,
});

/**
 * The signed-in person's own sessions (profile), for every role. Better Auth's session endpoints are off
 * for the browser (DEVIATIONS D51): these answer no token, and every ending is audited. Ending a session
 * is an unsafe method, so the access caches are cleared here and on the other instances (decision 005).
 */
export const sessionRoutes: FastifyPluginAsyncZod<SessionRoutesOptions> = async (app, { auth, db }) => {
  app.get(
    "/api/me/sessions",
    {
      schema: {
        tags: ["sessions"],
        response: { 200: ZSessionListResponseSchema, 401: ZErrorResponseSchema },
      },
    },
    async (request) => listOwnSessions(auth, ownerOf(request)),
  );

  app.delete(
    "/api/me/sessions/:id",
    {
      schema: {
        tags: ["sessions"],
        params: ZSessionIdParamsSchema,
        response: { 200: ZSessionsRevokedResponseSchema, ...errors },
      },
    },
    async (request) => {
      await revokeOwnSession(auth, db, ownerOf(request), request.params.id, sourceOf(request));
      return { message: "Signed out of that session.", revoked: 1 };
    },
  );

  app.post(
    "/api/me/sessions/revoke-others",
    { schema: { tags: ["sessions"], response: { 200: ZSessionsRevokedResponseSchema, ...errors } } },
    async (request) => {
      const revoked = await revokeOtherSessions(auth, db, ownerOf(request), sourceOf(request));
      return {
        message:
          revoked === 0
            ? "You are not signed in anywhere else."
            : `Signed out of ${revoked} other ${revoked === 1 ? "session" : "sessions"}.`,
        revoked,
      };
    },
  );
};
