import { createHash, timingSafeEqual } from "node:crypto";
import type { SigmaRestClient } from "@portal/sigma";
import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { AppError } from "../lib/errors.ts";
import type { SharedStore } from "../lib/redis.ts";
import { createMetrics, type PortalMetrics } from "./registry.ts";

export const METRICS_PATH = "/metrics";
/** The route label of a request no route matched (a 404, an unreadable URL): never the raw URL. */
const UNMATCHED = "unmatched";

declare module "fastify" {
  interface FastifyInstance {
    /** The app's metrics; null unless METRICS_TOKEN or METRICS_PORT is set. */
    metrics: PortalMetrics | null;
  }
}

export interface MetricsOptions {
  config: AppConfig;
  database: DatabaseHandle;
  shared: SharedStore | undefined;
  biClient: SigmaRestClient;
}

/**
 * Prometheus metrics, off by default. With METRICS_TOKEN or METRICS_PORT the app counts its requests;
 * `GET /metrics` is served here only with METRICS_TOKEN and no METRICS_PORT (with METRICS_PORT, server.ts
 * serves it on that port: listener.ts). Call before any route is added, so every route is counted.
 */
export function useMetrics(app: FastifyInstance, { config, database, shared, biClient }: MetricsOptions) {
  const { token, port } = config.metrics;
  if (!token && port === undefined) {
    app.decorate("metrics", null);
    return;
  }
  const metrics = createMetrics({ database, shared, pingBi: () => biClient.ping(), log: app.log });
  app.decorate("metrics", metrics);
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    // Scrapes are not the portal's traffic: they would dominate every rate.
    if (route === METRICS_PATH) return;
    const { requests, duration, serverErrors } = metrics.http;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) serverErrors.inc({ route });
  });
  if (port === undefined) metricsRoute(app, metrics, token);
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** `Authorization: Bearer <token>`, compared in constant time (both sides hashed to the same length first). */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(sent), expected);
}

/** `GET /metrics` in Prometheus's text format; with a token, only for `Authorization: Bearer <token>`. */
export function metricsRoute(app: FastifyInstance, metrics: PortalMetrics, token: string | undefined) {
  const expected = token === undefined ? undefined : digest(token);
  app.get(
    METRICS_PATH,
    // Outside /api, so no session is asked for: the scraper's credential is the token. Not in the API docs.
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      if (expected && !bearerMatches(request.headers.authorization, expected)) {
        throw new AppError(401, "The metrics token is missing or wrong.", "BAD_TOKEN");
      }
      const text = await metrics.registry.metrics();
      return reply
        .header("content-type", metrics.registry.contentType)
        .header("cache-control", "no-store")
        .send(text);
    },
  );
}
