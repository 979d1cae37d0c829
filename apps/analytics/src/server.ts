import { constants as zlibConstants } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import { readFile } from "node:fs/promises";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import type { AnalyticsConfig } from "./config.ts";
import { acceptsEncoding } from "./encoding.ts";
import { loadAnalyticsConfig } from "./config.ts";
import { openDatabase, type Database } from "./db/database.ts";
import { migrate } from "./db/migrations.ts";
import { installRowSecurity } from "./db/row-security.ts";
import { ensureDemoData, type DemoMeta } from "./demo/load.ts";
import { registerEmbedRoutes } from "./embed/routes.ts";
import { DIST_DIR, buildAnalyticsFrontEnd, frontEndBuilt } from "./frontend.ts";
import { registerRestRoutes } from "./rest/routes.ts";
import { codeOfStatus } from "./rest/shared.ts";
import { WORKBOOKS_DIR, loadWorkbookDefinitions, seedCatalog } from "./workbooks/catalog.ts";

export { acceptsEncoding };

export interface StartAnalyticsServerOptions {
  /** Overrides of the configuration read from `env`. */
  config?: Partial<AnalyticsConfig>;
  env?: NodeJS.ProcessEnv;
  /** Use this database instead of opening one (tests share a seeded instance); it is not closed by close(). */
  database?: Database;
  /** Directories of workbook definitions served beside those of `workbooks/`. */
  workbookDirs?: string[];
  /** Build the front end when dist/ is missing (default true). */
  buildFrontEnd?: boolean;
  logger?: boolean;
}

export interface AnalyticsServer {
  /** Base URL, e.g. http://127.0.0.1:3100 */
  url: string;
  /** Embed base URL for minting: `<url>/<org>` */
  embedBaseUrl: string;
  config: AnalyticsConfig;
  db: Database;
  demo: DemoMeta;
  app: FastifyInstance;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".png": "image/png",
};

/** Everything but the HTTP listener: database, migrations, row security, demo data, catalogue, routes. */
export async function buildAnalyticsApp(options: StartAnalyticsServerOptions = {}) {
  const config: AnalyticsConfig = {
    ...(await loadAnalyticsConfig(options.env ?? process.env)),
    ...options.config,
  };
  const app = Fastify({
    logger:
      options.logger === false || config.logLevel === "silent"
        ? false
        : {
            level: config.logLevel,
            // Embed URLs carry a token: log paths, never query strings.
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({
                method: req.method,
                path: req.url.split("?")[0],
                id: req.id,
              }),
            },
          },
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 64 * 1024,
    trustProxy: false,
  });
  // Brotli or gzip for the embed page and the element answers over 1 KB; built assets are precompressed.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  const ownsDb = !options.database;
  const db =
    options.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, "analytics-db") }));
  try {
    if (options.buildFrontEnd !== false && !frontEndBuilt()) await buildAnalyticsFrontEnd({ quiet: true });
    await migrate(db);
    await installRowSecurity(db, config.readerRole);
    const demo = await ensureDemoData(db, {
      size: config.demo.size,
      seed: config.demo.seed,
      asOf: config.demo.asOf,
      readerRole: config.readerRole,
      log: (m) => app.log.info(m),
    });
    const workbooks = await loadWorkbookDefinitions([WORKBOOKS_DIR, ...(options.workbookDirs ?? [])]);
    await seedCatalog(db, workbooks);

    app.get("/healthz", async () => ({ ok: true }));
    app.get<{ Params: { file: string } }>("/assets/:file", async (request, reply) => {
      const file = request.params.file;
      if (!/^[A-Za-z0-9._-]+$/.test(file)) return reply.code(404).send();
      try {
        // The build writes brotli and gzip copies beside each text file (scripts/lib/precompress.mjs).
        const encoding = (["br", "gzip"] as const).find((e) =>
          acceptsEncoding(request.headers["accept-encoding"], e),
        );
        const packed = encoding
          ? await readFile(path.join(DIST_DIR, "assets", `${file}.${encoding === "br" ? "br" : "gz"}`)).catch(
              () => undefined,
            )
          : undefined;
        const body = packed ?? (await readFile(path.join(DIST_DIR, "assets", file)));
        if (packed && encoding) reply.header("content-encoding", encoding);
        return reply
          .header("vary", "accept-encoding")
          .header("content-type", CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream")
          .header("cache-control", "public, max-age=31536000, immutable")
          .header("x-content-type-options", "nosniff")
          .header("cross-origin-resource-policy", "same-origin")
          .send(body);
      } catch {
        return reply.code(404).send();
      }
    });
    registerEmbedRoutes(app, { config, db, workbooks });
    registerRestRoutes(app, { config, db });
    app.setErrorHandler((error, request, reply) => {
      request.log.error({ err: error }, "request failed");
      const raw = (error as { statusCode?: number }).statusCode ?? 500;
      const status = raw >= 400 && raw < 500 ? raw : 500;
      return reply.code(status).send({
        message: status < 500 ? "Bad request." : "Internal error.",
        code: codeOfStatus(status),
        requestId: request.id,
      });
    });
    return { app, config, db, demo, ownsDb };
  } catch (error) {
    if (ownsDb) await db.close();
    throw error;
  }
}

/** Starts the built-in analytics server (the embedded default of the BI service). */
export async function startAnalyticsServer(
  options: StartAnalyticsServerOptions = {},
): Promise<AnalyticsServer> {
  const { app, config, db, demo, ownsDb } = await buildAnalyticsApp(options);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  if (config.port === 0) config.publicUrl = url;
  return {
    url,
    embedBaseUrl: `${config.publicUrl}/${config.orgSlug}`,
    config,
    db,
    demo,
    app,
    async close() {
      await app.close();
      if (ownsDb) await db.close();
    },
  };
}
