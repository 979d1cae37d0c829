import type { FastifyInstance } from "fastify";
import { migrationsApplied, type DatabaseHandle } from "../db/client.ts";
import type { SharedStore } from "../lib/redis.ts";

/** Set when the instance is shutting down: /readyz answers 503 so the load balancer stops sending. */
export interface Lifecycle {
  draining: boolean;
}

export async function healthRoutes(
  app: FastifyInstance,
  {
    database,
    expectedMigrations,
    shared,
    lifecycle,
  }: {
    database: DatabaseHandle;
    expectedMigrations: number;
    shared?: SharedStore | undefined;
    lifecycle: Lifecycle;
  },
) {
  /** The process is up. */
  app.get("/healthz", async () => ({ status: "ok" }));

  /** The database answers and every migration is applied. */
  app.get("/readyz", async (_request, reply) => {
    // Shutting down: finishing what is in flight, taking nothing new.
    if (lifecycle.draining) return reply.status(503).send({ status: "draining" });
    try {
      await database.ping();
      if (!(await migrationsApplied(database.db, expectedMigrations))) {
        return reply.status(503).send({ status: "not ready", error: "Database migrations are not applied." });
      }
      // Redis down is not a reason to stop serving: limits fall back to the database, caches are off.
      if (shared && !shared.healthy) return { status: "degraded", redis: "unreachable" };
      return { status: "ready" };
    } catch (error) {
      app.log.warn({ err: error }, "readiness check failed");
      return reply.status(503).send({ status: "not ready", error: "The database is not reachable." });
    }
  });
}
