import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { createBiReachability } from "./bi-reachability.ts";
import { auditRowsAppended, signIns } from "./counters.ts";
import { registerStateGauges, type StateSources } from "./gauges.ts";

/** An app's metrics: its own registry (never prom-client's global one: a test process builds many apps). */
export interface PortalMetrics {
  registry: Registry;
  http: {
    requests: Counter<"method" | "route" | "status">;
    duration: Histogram<"method" | "route">;
    serverErrors: Counter<"route">;
  };
}

export interface MetricsSources extends Omit<StateSources, "bi"> {
  /** The BI service's bounded ping (`SigmaRestClient.ping`). */
  pingBi: () => Promise<boolean>;
}

export function createMetrics({ pingBi, ...sources }: MetricsSources): PortalMetrics {
  const registry = new Registry();
  // The process's CPU, memory, event loop and garbage collection (unprefixed, as dashboards expect them).
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const http = {
    requests: new Counter({
      name: "portal_http_requests_total",
      help: "Requests answered, by method, route pattern (unmatched: no route) and status.",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    duration: new Histogram({
      name: "portal_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by method and route pattern.",
      labelNames: ["method", "route"] as const,
      registers,
    }),
    serverErrors: new Counter({
      name: "portal_http_server_errors_total",
      help: "Requests answered with a 5xx status, by route pattern.",
      labelNames: ["route"] as const,
      registers,
    }),
  };
  registry.registerMetric(signIns);
  registry.registerMetric(auditRowsAppended);
  registerStateGauges(registry, { ...sources, bi: createBiReachability(pingBi) });
  return { registry, http };
}
