import { SESSION_ACTIVITY_RESOLUTION_SECONDS } from "@portal/contracts";
import { and, eq, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import type { Database } from "../db/client.ts";
import { sessions } from "../db/schema.ts";

/**
 * "Last active" of a session (the profile's session list) is its `updated_at`. Sessions have an absolute
 * lifetime and no sliding refresh (auth.ts), so Better Auth never writes to a session after sign-in; the
 * portal notes a request of a signed-in principal here instead — at most once per
 * SESSION_ACTIVITY_RESOLUTION_SECONDS per session and instance (remembered in memory), and the statement
 * itself skips a session touched that recently by another instance. Freshness checks read `created_at`,
 * so this moves no security decision.
 */
export const sessionActivity = fp<{ db: Database; resolutionSeconds?: number }>(
  async (app: FastifyInstance, { db, resolutionSeconds = SESSION_ACTIVITY_RESOLUTION_SECONDS }) => {
    const recent = new LRUCache<string, true>({ max: 50_000, ttl: resolutionSeconds * 1000 });
    app.addHook("onRequest", async (request) => {
      const sessionId = request.principal?.sessionId;
      if (!sessionId || recent.has(sessionId)) return;
      recent.set(sessionId, true);
      try {
        await db
          .update(sessions)
          .set({ updatedAt: sql`now()` })
          .where(
            and(
              eq(sessions.id, sessionId),
              lt(sessions.updatedAt, sql`now() - make_interval(secs => ${resolutionSeconds})`),
            ),
          );
      } catch (error) {
        // Activity is a convenience: a failed note never fails the request.
        recent.delete(sessionId);
        request.log.warn({ err: error }, "noting session activity failed");
      }
    });
  },
);
