import type { FastifyInstance } from "fastify";
import { PageResults } from "../workbooks/results.ts";
import type { EmbedContext, EmbedDeps } from "./context.ts";
import { LayoutReports } from "./layout.ts";
import { registerLayoutRoute } from "./layout-route.ts";
import { registerPageRoutes } from "./page-route.ts";
import { registerQueryRoute } from "./query-route.ts";
import { pruneUsedJtis } from "./verify.ts";

/**
 * The embed, one file per route: the page a signed URL opens (`page-route.ts`, streamed by
 * `page-stream.ts`), and the page's own requests: its chart sizes while its first data is computed
 * (`layout-route.ts`) and its later data (`query-route.ts`).
 */
export function registerEmbedRoutes(app: FastifyInstance, deps: EmbedDeps): void {
  let lastPrune = 0;
  const ctx: EmbedContext = {
    ...deps,
    layouts: new LayoutReports(),
    layoutUrl: `/${deps.config.orgSlug}/api/embed/layout`,
    results: new PageResults(
      deps.db,
      deps.config.readerRole,
      (error, elementId) => app.log.error({ err: error, elementId }, "element query failed"),
      { ttlMs: deps.config.resultCacheSeconds * 1000 },
    ),
    prune: async () => {
      if (Date.now() - lastPrune < 3_600_000) return;
      lastPrune = Date.now();
      await pruneUsedJtis(deps.db);
    },
    log: app.log,
  };
  registerPageRoutes(app, ctx);
  registerLayoutRoute(app, ctx);
  registerQueryRoute(app, ctx);
}
