import type { FastifyInstance } from "fastify";
import { migrationsApplied, type DatabaseHandle } from "../db/client.ts";
import type { SecretProblem } from "../deployment/secret-checks.ts";
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
    secretProblems,
  }: {
    database: DatabaseHandle;
    /** The secrets the database depends on, against this instance's settings (deployment/secret-checks.ts). */
    secretProblems: () => Promise<SecretProblem[]>;
    expectedMigrations: number;
    shared?: SharedStore | undefined;
    lifecycle: Lifecycle;
  },
) {
  /** The process is up. */
  app.get("/healthz", async () => ({ status: "ok" }));

  /** The database answers, every migration is applied, and the database's secrets are this instance's. */
  app.get("/readyz", async (_request, reply) => {
    // Shutting down: finishing what is in flight, taking nothing new.
    if (lifecycle.draining) return reply.status(503).send({ status: "draining" });
    try {
      await database.ping();
      if (!(await migrationsApplied(database.db, expectedMigrations))) {
        return reply.status(503).send({ status: "not ready", error: "Database migrations are not applied." });
      }
      // The database changed under the instance (restored, or written by one with another key): not ready.
      const problems = await secretProblems();
      if (problems.length > 0) {
        app.log.error({ problems }, "readiness check: settings do not fit the database");
        return reply
          .status(503)
          .send({ status: "not ready", error: problems.map((p) => p.message).join(" ") });
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
