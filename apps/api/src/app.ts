import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { signInPathOf } from "@portal/contracts";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from "fastify-type-provider-zod";
import helmet from "helmet";
import { ZodError } from "zod";
import { AccessCache } from "./access/access-cache.ts";
import type { EmbedIdentity } from "./access/embed-identity.ts";
import { auditChainKey, useAuditChainKey } from "./audit/chain.ts";
import { createAuth, type Auth } from "./auth/auth.ts";
import type { AppConfig } from "./config.ts";
import { countMigrations, type DatabaseHandle } from "./db/client.ts";
import { AppError } from "./lib/errors.ts";
import { redactUrl } from "./lib/redact.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { authenticate, SAFE_METHODS, type CachedPrincipal } from "./plugins/authenticate.ts";
import { adminRoutes } from "./routes/admin.ts";
import { authRoutes, createSignInFailureLimiter } from "./routes/auth.ts";
import { embedRoutes } from "./routes/embed.ts";
import { healthRoutes } from "./routes/health.ts";
import { provisionRoutes } from "./routes/provision.ts";
import { publicConfigRoutes } from "./routes/public-config.ts";
import { createEmbedder, type Embedder } from "./sigma/embedder.ts";

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** Built SPA to serve; omitted → API only. */
  webDist?: string | undefined;
  mailer?: Mailer;
  embedder?: Embedder;
  logger?: boolean;
}

export interface App {
  app: FastifyInstance;
  auth: Auth;
}

export async function buildApp({
  config,
  database,
  webDist,
  mailer,
  embedder,
  logger = true,
}: BuildAppOptions): Promise<App> {
  const app = Fastify({
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: 256 * 1024,
    logger: logger && {
      level: config.logLevel,
      redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
      serializers: {
        req: (req: { method: string; url: string; ip: string; id: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          ip: req.ip,
          id: req.id,
        }),
      },
    },
  });
  const db = database.db;
  useAuditChainKey(auditChainKey(config.auditKeySecret));
  const mail =
    mailer ??
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const signInFailures = createSignInFailureLimiter(config);
  const auth = createAuth({
    config,
    db,
    mailer: mail,
    onPasswordReset: async (email) => {
      await signInFailures.delete(email.toLowerCase());
    },
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      const code = error.code === "ERROR" ? {} : { code: error.code };
      return reply.status(error.status).send({ error: error.message, ...code, requestId: request.id });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ error: error.validation[0]!.message, requestId: request.id });
    }
    if (error instanceof ZodError) {
      const first = error.issues[0];
      const where = first?.path.length ? `${first.path.join(".")}: ` : "";
      return reply
        .status(400)
        .send({ error: `${where}${first?.message ?? "Invalid request."}`, requestId: request.id });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({ error: (error as Error).message, requestId: request.id });
    }
    request.log.error({ err: error }, "request failed");
    return reply
      .status(status)
      .send({ error: "Something went wrong on our side. Please try again.", requestId: request.id });
  });

  // Security headers on every answer. The middleware is built once here: the Fastify wrapper rebuilt
  // it (re-parsing the CSP) on every request, which showed in the embed benchmark's profile.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix injects a <style> element to lock page scroll under modals; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        // Only the configured BI service (Sigma or the built-in analytics server) may be framed.
        frameSrc: ["'self'", new URL(config.sigma.embedBaseUrl).origin],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    strictTransportSecurity: config.publicUrl.startsWith("https://"),
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  app.addHook("onRequest", (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Meridian client portal API",
        version: "1.0.0",
        description:
          "Admin back office API. Every route needs an admin session cookie or an admin Bearer JWT from /api/auth/token.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });

  // Decision 005: verified sessions and viewing decisions are reused for a few seconds, and every
  // request that may change them clears both before it runs and again before it answers.
  const principals = new AccessCache<CachedPrincipal>({ ttlSeconds: config.accessCacheSeconds });
  const identities = new AccessCache<EmbedIdentity>({ ttlSeconds: config.accessCacheSeconds });
  const invalidateAccess = async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.keepsAccess) return;
    principals.invalidate();
    identities.invalidate();
  };
  app.addHook("onRequest", invalidateAccess);
  app.addHook("onSend", invalidateAccess);

  await app.register(authenticate, { auth, db, config, principals });
  await app.register(healthRoutes, { database, expectedMigrations: countMigrations() });
  await app.register(authRoutes, { auth, db, config, signInFailures });
  await app.register(publicConfigRoutes, { config });
  await app.register(provisionRoutes, { db });
  const sigmaEmbedder = embedder ?? createEmbedder(config);
  await app.register(adminRoutes, { db, embedder: sigmaEmbedder });
  await app.register(embedRoutes, {
    db,
    embedder: sigmaEmbedder,
    perMinute: config.embedRateLimitPerMinute,
    identities,
    // One audit statement in flight: appends to the hash chain are serialised anyway (decision 007), and
    // while one is committing the next batch grows instead of waiting on the chain head's row lock.
    auditWriters: 1,
  });

  const hasWeb = webDist && existsSync(path.join(webDist, "index.html"));
  if (hasWeb) {
    const assets = path.join(path.resolve(webDist), "assets") + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // Vite names every built asset after its content, so a changed file gets a new name: browsers may
      // keep assets for good. Other files (the favicon) are revalidated.
      setHeaders: (reply, filePath) => {
        if (filePath.startsWith(assets)) reply.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
  const hasSignInPage = hasWeb && existsSync(path.join(webDist, "login.html"));
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith("/api/") || request.url === "/api";
    // A missing build asset is a 404, never index.html (which the browser would reject as a script).
    const isAsset = request.url.startsWith("/assets/");
    if (!isApi && !isAsset && hasWeb && (request.method === "GET" || request.method === "HEAD")) {
      // The sign-in screens are their own small page (decision 004); every other client-side route
      // (including the SPA's own 404 page) is served by index.html.
      const signIn = hasSignInPage && signInPathOf(request.url.split("?", 1)[0] ?? "") !== null;
      // Always revalidated, so a new release's asset names are picked up (sendFile's own header is off).
      return reply
        .header("cache-control", "no-cache")
        .sendFile(signIn ? "login.html" : "index.html", { cacheControl: false });
    }
    return reply.status(404).send({ error: "Not found.", requestId: request.id });
  });

  app.addHook("onClose", async () => mail.close());
  return { app, auth };
}
