import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { Gauge, type Registry } from "prom-client";
import type { DatabaseHandle } from "../db/client.ts";
import { rows } from "../db/rows.ts";
import type { SharedStore } from "../lib/redis.ts";
import type { BiReachability } from "./bi-reachability.ts";

export interface StateSources {
  database: DatabaseHandle;
  /** Undefined without REDIS_URL. */
  shared: SharedStore | undefined;
  bi: BiReachability;
  log: FastifyBaseLogger;
}

interface OutboxState {
  pending: number;
  failed: number;
  oldestPendingSeconds: number;
}

/**
 * The outbox as one query per scrape, shared by its three gauges (prom-client asks each metric at once): only
 * rows not yet delivered, so the partial index of open rows answers it however long the history grows.
 */
function outboxReader(database: DatabaseHandle, log: FastifyBaseLogger) {
  let underWay: Promise<OutboxState> | undefined;
  const read = async (): Promise<OutboxState> => {
    try {
      const [state] = rows<OutboxState>(
        await database.db.execute(sql`
          select count(*) filter (where status = 'pending')::int as "pending",
                 count(*) filter (where status = 'failed')::int as "failed",
                 coalesce(extract(epoch from now() - min(created_at) filter (where status = 'pending')), 0)::float8
                   as "oldestPendingSeconds"
            from provisioning_requests where status <> 'done'`),
      );
      return state!;
    } catch (error) {
      // The rest of the scrape still answers; NaN is Prometheus's "no value", which no alert reads as healthy.
      log.warn({ err: error }, "metrics: the outbox could not be read");
      return { pending: NaN, failed: NaN, oldestPendingSeconds: NaN };
    }
  };
  return () =>
    (underWay ??= read().finally(() => {
      underWay = undefined;
    }));
}

/** The gauges read when Prometheus scrapes: outbox, BI service, Redis, database pool. */
export function registerStateGauges(registry: Registry, { database, shared, bi, log }: StateSources): void {
  const registers = [registry];
  const outbox = outboxReader(database, log);
  new Gauge({
    name: "portal_outbox_pending_changes",
    help: "Changes for the BI service not yet delivered (waiting, due or being delivered).",
    registers,
    async collect() {
      this.set((await outbox()).pending);
    },
  });
  new Gauge({
    name: "portal_outbox_failed_changes",
    help: "Changes the BI service refused; they wait for an admin's Retry on /admin/sync.",
    registers,
    async collect() {
      this.set((await outbox()).failed);
    },
  });
  new Gauge({
    name: "portal_outbox_oldest_pending_age_seconds",
    help: "Age of the oldest change not yet delivered to the BI service (0 when none is pending).",
    registers,
    async collect() {
      this.set((await outbox()).oldestPendingSeconds);
    },
  });
  new Gauge({
    name: "portal_bi_service_up",
    help: "1 when the BI service answered its last ping (cached for 30 s), else 0.",
    registers,
    async collect() {
      this.set((await bi.current()) ? 1 : 0);
    },
  });
  const redisStates = ["connected", "unreachable", "not_configured"] as const;
  new Gauge({
    name: "portal_redis_state",
    help: "The shared store (Redis): 1 for the current state (connected, unreachable, not_configured), 0 for the others.",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const current = !shared ? "not_configured" : shared.healthy ? "connected" : "unreachable";
      for (const state of redisStates) this.set({ state }, state === current ? 1 : 0);
    },
  });
  registerPoolGauges(registers, database);
}

function registerPoolGauges(registers: Registry[], database: DatabaseHandle): void {
  new Gauge({
    name: "portal_db_pool_connections",
    help: "Open connections to the database (the embedded PGlite: always 1).",
    registers,
    collect() {
      this.set(database.poolStats().total);
    },
  });
  new Gauge({
    name: "portal_db_pool_idle_connections",
    help: "Open database connections not in use.",
    registers,
    collect() {
      this.set(database.poolStats().idle);
    },
  });
  new Gauge({
    name: "portal_db_pool_waiting_requests",
    help: "Queries waiting for a free database connection (the pool is exhausted while this stays above 0).",
    registers,
    collect() {
      this.set(database.poolStats().waiting);
    },
  });
}
