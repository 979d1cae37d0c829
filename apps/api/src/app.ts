import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { constants as zlibConstants } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { httpStatusCode, signInPathOf } from "@portal/contracts";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from "fastify-type-provider-zod";
import helmet from "helmet";
import { ZodError } from "zod";
import { AccessCache } from "./access/access-cache.ts";
import { createBrandingStore } from "./branding/store.ts";
import type { EmbedIdentity } from "./access/embed-identity.ts";
import { recordRefusal } from "./access/refusal-audit.ts";
import { auditChainKey, useAuditChainKey } from "./audit/chain.ts";
import { createAccountLimits } from "./auth/account-limits.ts";
import { createAuth, type Auth } from "./auth/auth.ts";
import type { AppConfig } from "./config.ts";
import { countMigrations, type DatabaseHandle } from "./db/client.ts";
import { canonicalRequestTarget, isUnder, pathOf } from "./lib/canonical-url.ts";
import { AppError, forbidden, unauthenticated } from "./lib/errors.ts";
import { redactUrl } from "./lib/redact.ts";
import { createSharedStore } from "./lib/redis.ts";
import { toWebHeaders } from "./lib/web-request.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { authenticate, mustEnrol, SAFE_METHODS, type CachedPrincipal } from "./plugins/authenticate.ts";
import { requestBodies } from "./plugins/request-bodies.ts";
import { adminRoutes } from "./routes/admin.ts";
import { peopleRoutes } from "./people/routes.ts";
import { adminSettingsRoutes } from "./routes/admin-settings.ts";
import { authRoutes } from "./routes/auth.ts";
import { brandingRoutes } from "./routes/branding.ts";
import { embedRoutes } from "./routes/embed.ts";
import { healthRoutes } from "./routes/health.ts";
import { adminInvitationRoutes, invitationRoutes } from "./routes/invitations.ts";
import { createInvitationMailer, type InvitationMailer } from "./invitations/mail.ts";
import { provisionRoutes } from "./routes/provision.ts";
import { publicConfigRoutes } from "./routes/public-config.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { sessionActivity } from "./sessions/activity.ts";
import { createEmbedder, type Embedder } from "./sigma/embedder.ts";
import { createSigmaRestClient } from "./sigma/provisioning.ts";
import type { SigmaRestClient } from "@portal/sigma";

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** Built SPA to serve; omitted → API only. */
  webDist?: string | undefined;
  mailer?: Mailer;
  embedder?: Embedder;
  /** The BI service's REST API; omitted → the configured one (Sigma or the built-in analytics server). */
  biClient?: SigmaRestClient;
  logger?: boolean;
}

/** Set when the instance is shutting down: /readyz answers 503 so the load balancer stops sending. */
export interface Lifecycle {
  draining: boolean;
}

export interface App {
  app: FastifyInstance;
  auth: Auth;
  biClient: SigmaRestClient;
  lifecycle: Lifecycle;
  /** Invitation mail (D55); the CSV import worker sends its invited people's links with it. */
  invitations: InvitationMailer;
}

export async function buildApp({
  config,
  database,
  webDist,
  mailer,
  embedder,
  biClient: givenBiClient,
  logger = true,
}: BuildAppOptions): Promise<App> {
  const biClient = givenBiClient ?? (await createSigmaRestClient(config));
  const lifecycle: Lifecycle = { draining: false };
  const app = Fastify({
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Every body on every route, Better Auth's included (its form parser reads through Fastify too).
    bodyLimit: 256 * 1024,
    // One spelling of the path for the router, the guard, routes/auth.ts and Better Auth (lib/canonical-url.ts).
    rewriteUrl: (req) => canonicalRequestTarget(req.url ?? "/"),
    // A URL the router cannot read (`/%zz`) or a path parameter over its length: the portal's error body.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
      void (reply as FastifyReply).status(400).send({
        error: tooLong ? "A part of the request address is too long." : "The request address is not valid.",
        code: tooLong ? "URL_PART_TOO_LONG" : "BAD_URL",
        requestId: request.id,
      });
    },
    logger: logger && {
      level: config.logLevel,
      redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
      serializers: {
        req: (req: { method: string; url: string; originalUrl?: string; ip: string; id: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          // The spelling the client sent, when rewriteUrl made it canonical (an attack shows as such).
          // (Not for a reset link: its token could be spelt past redactUrl's pattern.)
          ...(req.originalUrl && req.originalUrl !== req.url && !req.url.includes("/reset-password")
            ? { sentUrl: redactUrl(req.originalUrl) }
            : {}),
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
  // REDIS_URL: several instances share limits and access-cache invalidations (decision 009).
  const shared = config.redis ? createSharedStore(config.redis.url, config.redis.prefix, app.log) : undefined;
  // The firm's name, colour and logo (decision 014): the sign-in page, the shells, mail and the embed theme.
  const branding = createBrandingStore(db);
  const auth = createAuth({
    config,
    db,
    mailer: mail,
    mailFirm: async () => (await branding.current()).branding,
    limits: {
      passwords: createAccountLimits(db, config, "sign-in", shared),
      codes: createAccountLimits(db, config, "second-step", shared),
    },
    shared,
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Brotli or gzip for every text answer over 1 KB (the lists, the OpenAPI document). Built files are
  // compressed at build time and served as they are (`preCompressed` below); this plugin leaves an answer
  // that already has a Content-Encoding alone. Brotli at quality 5: most of its gain for a fraction of the CPU.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });

  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  // One error body for the portal's own API: { error (readable), code (stable), requestId }.
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof AppError) {
      // Every refusal of a protected resource leaves an audit row (wrong role, CSRF, MFA enrolment...).
      if (error.status === 403) await recordRefusal(db, request, error);
      return reply
        .status(error.status)
        .send({ error: error.message, code: error.code, requestId: request.id });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ error: error.validation[0]!.message, code: "INVALID_INPUT", requestId: request.id });
    }
    if (error instanceof ZodError) {
      const first = error.issues[0];
      const where = first?.path.length ? `${first.path.join(".")}: ` : "";
      return reply.status(400).send({
        error: `${where}${first?.message ?? "Invalid request."}`,
        code: "INVALID_INPUT",
        requestId: request.id,
      });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (413 body too large, 415 media type, empty JSON body...): readable already.
      return reply
        .status(status)
        .send({ error: (error as Error).message, code: httpStatusCode(status), requestId: request.id });
    }
    request.log.error({ err: error }, "request failed");
    return reply.status(status >= 500 ? status : 500).send({
      error: "Something went wrong on our side. Please try again.",
      code: "INTERNAL_ERROR",
      requestId: request.id,
    });
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
  // The OpenAPI page maps the whole API: in production only with API_DOCS=1, and then for signed-in admins.
  if (config.apiDocs) {
    await app.register(fastifySwaggerUi, {
      routePrefix: "/api/docs",
      ...(config.isProduction && {
        uiHooks: {
          onRequest: async (request: FastifyRequest) => {
            const signedIn = await auth.api.getSession({ headers: toWebHeaders(request) });
            if (!signedIn) throw unauthenticated();
            const person = { role: signedIn.user.role, twoFactorEnabled: signedIn.user.twoFactorEnabled };
            if (person.role !== "admin" || mustEnrol(person, config)) throw forbidden();
          },
        },
      }),
    });
  }

  // Decision 005: verified sessions and viewing decisions are reused for a few seconds, and every
  // request that may change them clears both before it runs and again before it answers.
  // With other instances (REDIS_URL) a cache is used only while their invalidations can reach it.
  const cacheOptions = {
    ttlSeconds: config.accessCacheSeconds,
    ...(shared && { available: () => shared.healthy }),
  };
  const principals = new AccessCache<CachedPrincipal>(cacheOptions);
  const identities = new AccessCache<EmbedIdentity>(cacheOptions);
  const dropCaches = () => {
    principals.invalidate();
    identities.invalidate();
  };
  shared?.onInvalidation(dropCaches);
  const invalidateAccess = async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.keepsAccess) return;
    dropCaches();
    shared?.publishInvalidation();
  };
  app.addHook("onRequest", invalidateAccess);
  app.addHook("onSend", invalidateAccess);

  await app.register(requestBodies);
  await app.register(authenticate, { auth, db, config, principals });
  // After authenticate: a signed-in principal's request is noted as its session's last activity (throttled).
  await app.register(sessionActivity, { db });
  await app.register(healthRoutes, { database, expectedMigrations: countMigrations(), shared, lifecycle });
  await app.register(authRoutes, { auth, db, config });
  await app.register(publicConfigRoutes, { config });
  await app.register(brandingRoutes, { branding });
  await app.register(adminSettingsRoutes, { branding });
  await app.register(provisionRoutes, { db });
  const sigmaEmbedder =
    embedder ??
    createEmbedder(config, { accent: async () => (await branding.current()).branding.primaryColour });
  // Invitations (D55): mail with the firm's branding, sent after each transaction commits.
  const invitations = createInvitationMailer({
    mailer: mail,
    publicUrl: config.publicUrl,
    lifetimeMs: config.inviteLifetimeMs,
    mailFirm: async () => (await branding.current()).branding,
  });
  await app.register(adminRoutes, { db, embedder: sigmaEmbedder, biClient, invitations });
  await app.register(peopleRoutes, { auth, db, embedder: sigmaEmbedder, invitations });
  await app.register(invitationRoutes, { auth, db, config, invitations, shared });
  await app.register(adminInvitationRoutes, { auth, db, config, invitations });
  await app.register(sessionRoutes, { auth, db });
  await app.register(embedRoutes, {
    db,
    embedder: sigmaEmbedder,
    perMinute: config.embedRateLimitPerMinute,
    identities,
    // One audit statement in flight: appends to the hash chain are serialised anyway (decision 007), and
    // while one is committing the next batch grows instead of waiting on the chain head's row lock.
    auditWriters: 1,
    shared,
  });

  const hasWeb = webDist && existsSync(path.join(webDist, "index.html"));
  if (hasWeb) {
    const assets = path.join(path.resolve(webDist), "assets") + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes `.br` and `.gz` beside each text file (apps/web/vite.config.ts).
      preCompressed: true,
      // Vite names every built asset after its content, so a changed file gets a new name: browsers may
      // keep assets for good. Other files (the favicon) are revalidated.
      setHeaders: (reply, filePath) => {
        if (filePath.startsWith(assets)) reply.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
  const hasSignInPage = hasWeb && existsSync(path.join(webDist, "login.html"));
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url); // canonical (rewriteUrl), as the router and the guard read it
    const isApi = isUnder(path, "/api");
    // A missing build asset is a 404, never index.html (which the browser would reject as a script).
    const isAsset = isUnder(path, "/assets");
    if (!isApi && !isAsset && hasWeb && (request.method === "GET" || request.method === "HEAD")) {
      // The sign-in screens are their own small page (decision 004); every other client-side route
      // (including the SPA's own 404 page) is served by index.html.
      const signIn = hasSignInPage && signInPathOf(path) !== null;
      // Always revalidated, so a new release's asset names are picked up (sendFile's own header is off).
      return reply
        .header("cache-control", "no-cache")
        .sendFile(signIn ? "login.html" : "index.html", { cacheControl: false });
    }
    return reply.status(404).send({ error: "Not found.", code: "NOT_FOUND", requestId: request.id });
  });

  app.addHook("onClose", async () => {
    mail.close();
    await shared?.close();
  });
  return { app, auth, biClient, lifecycle, invitations };
}
