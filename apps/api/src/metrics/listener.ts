import { randomUUID } from "node:crypto";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { useErrorHandler } from "../lib/error-handler.ts";
import { useRequestFaults } from "../lib/request-faults.ts";
import { metricsRoute } from "./routes.ts";

/**
 * METRICS_PORT: `/metrics` on a listener of its own (the app's HOST), so the scraper can be let in on a
 * port the public never reaches; the main port then does not serve it. Answers with the portal's error
 * body; its requests are not logged (a scrape every few seconds) nor counted. Undefined without METRICS_PORT.
 */
export async function startMetricsListener(
  app: FastifyInstance,
  config: AppConfig,
  db: Database,
): Promise<FastifyInstance | undefined> {
  const { port, token } = config.metrics;
  if (port === undefined || !app.metrics) return undefined;
  const listener = Fastify({
    loggerInstance: app.log.child({ listener: "metrics" }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
  });
  // The main port's error answers, and a 5xx explained in the log as there.
  useRequestFaults(listener);
  useErrorHandler(listener, db);
  listener.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: "Not found.", code: "NOT_FOUND", requestId: request.id }),
  );
  metricsRoute(listener, app.metrics, token);
  await listener.listen({ port, host: config.host });
  return listener;
}
