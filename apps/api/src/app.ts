import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { constants as zlibConstants } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { createBrandingStore, type BrandingStore } from "./branding/store.ts";
import { auditChainKey, useAuditChainKey } from "./audit/chain.ts";
import { createAccountLimits } from "./auth/account-limits.ts";
import { createAuth, type Auth } from "./auth/auth.ts";
import type { AppConfig } from "./config.ts";
import { countMigrations, type DatabaseHandle } from "./db/client.ts";
import { canonicalRequestTarget } from "./lib/canonical-url.ts";
import { useErrorHandler } from "./lib/error-handler.ts";
import { useMetrics } from "./metrics/routes.ts";
import { useRequestFaults } from "./lib/request-faults.ts";
import { redactUrl } from "./lib/redact.ts";
import { createSharedStore, type SharedStore } from "./lib/redis.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { useAccessCaches } from "./access/invalidation.ts";
import { adminAuditRoutes } from "./audit/routes.ts";
import { useAuditSealer, type AuditSealer } from "./audit/sealer.ts";
import { adminImportRoutes } from "./import/routes.ts";
import { syncRoutes } from "./outbox/routes.ts";
import { apiDocs } from "./plugins/api-docs.ts";
import { authenticate } from "./plugins/authenticate.ts";
import { useSecurityHeaders } from "./plugins/security-headers.ts";
import { webFiles } from "./plugins/web-files.ts";
import { workbookAdminRoutes } from "./workbooks/routes.ts";
import { viewAsClientRoutes } from "./workbooks/view-as-client.ts";
import { requestBodies } from "./plugins/request-bodies.ts";
import { peopleRoutes } from "./people/routes.ts";
import { adminSettingsRoutes } from "./branding/admin-routes.ts";
import { authRoutes } from "./routes/auth.ts";
import { brandingRoutes } from "./branding/routes.ts";
import { embedRoutes } from "./workbooks/embed-routes.ts";
import { healthRoutes, type Lifecycle } from "./routes/health.ts";
import { checkDeploymentSecrets } from "./deployment/secret-checks.ts";
import { adminInvitationRoutes, invitationRoutes } from "./invitations/routes.ts";
import { signInAlertRoutes } from "./signin/alert-routes.ts";
import { createInvitationMailer, type InvitationMailer } from "./invitations/mail.ts";
import { adminDelegateRoutes, myDelegateRoutes } from "./circle/delegate-routes.ts";
import { delegationPolicyRoutes } from "./circle/policy-routes.ts";
import { signInPolicyRoutes } from "./signin/policy-routes.ts";
import { provisionRoutes } from "./accounts/provision-routes.ts";
import { publicConfigRoutes } from "./routes/public-config.ts";
import { sessionRoutes } from "./sessions/routes.ts";
import { sessionActivity } from "./sessions/activity.ts";
import { householdRoutes } from "./circle/household-routes.ts";
import { useDelegationReminders, type DelegationReminders } from "./circle/reminders.ts";
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
  /** false: no log (most tests); a stream: the log's lines go there (tests that read the log). */
  logger?: boolean | { stream: { write(line: string): void } };
}

export interface App {
  app: FastifyInstance;
  auth: Auth;
  biClient: SigmaRestClient;
  lifecycle: Lifecycle;
  /** Invitation mail (D55); the CSV import worker sends its invited people's links with it. */
  invitations: InvitationMailer;
  /** Mails clients a week before a delegate's access ends (every DELEGATION_REMINDER_INTERVAL_SECONDS). */
  delegationReminders: DelegationReminders;
  /** Seals audit rows into the chain (decision 023); `server.ts` flushes it once the workers have stopped. */
  auditSealer: AuditSealer;
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
    logger: logger !== false && {
      level: config.logLevel,
      ...(typeof logger === "object" ? { stream: logger.stream } : {}),
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
  database.useLog(app.log);
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
    log: app.log,
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

  // First of every request's hooks: what goes wrong while answering is kept with the request, and a 5xx is
  // explained once in the log (lib/request-faults.ts).
  useRequestFaults(app);
  useErrorHandler(app, db);
  useMetrics(app, { config, database, shared, biClient });

  useSecurityHeaders(app, config);

  await apiDocs(app, { auth, config });

  const { principals, identities } = useAccessCaches(app, config, shared);

  await app.register(requestBodies);
  await app.register(authenticate, { auth, db, config, principals });
  // After authenticate: a signed-in principal's request is noted as its session's last activity (throttled).
  await app.register(sessionActivity, { db });
  await app.register(healthRoutes, {
    database,
    expectedMigrations: countMigrations(),
    shared,
    lifecycle,
    secretProblems: () => checkDeploymentSecrets(db, { config, record: false }),
  });
  await app.register(authRoutes, { auth, db, config });
  await app.register(publicConfigRoutes, { config, db });
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
  const delegationReminders = await domainRoutes(app, {
    auth,
    db,
    config,
    shared,
    biClient,
    embedder: sigmaEmbedder,
    invitations,
    identities,
    reminders: { mailer: mail, branding },
    auditWriters: database.kind === "postgres" ? 4 : 1,
  });

  // Pages that show a workbook connect to the BI service's origin early (decision 024).
  await webFiles(app, webDist, { embedOrigin: new URL(config.sigma.embedBaseUrl).origin });

  app.addHook("onClose", async () => {
    mail.close();
    await shared?.close();
  });
  // Seals the audit rows every instance writes, and what is left at close (decision 023).
  const auditSealer = useAuditSealer(app, db);
  return { app, auth, biClient, lifecycle, invitations, delegationReminders, auditSealer };
}

interface DomainRouteDeps {
  auth: Auth;
  db: DatabaseHandle["db"];
  config: AppConfig;
  shared: SharedStore | undefined;
  biClient: SigmaRestClient;
  embedder: Embedder;
  invitations: InvitationMailer;
  identities: ReturnType<typeof useAccessCaches>["identities"];
  reminders: { mailer: Mailer; branding: BrandingStore };
  auditWriters: number;
}

/** The portal's own API, domain by domain; returns the delegation reminders it starts. */
async function domainRoutes(
  app: FastifyInstance,
  {
    auth,
    db,
    config,
    shared,
    biClient,
    embedder,
    invitations,
    identities,
    reminders,
    auditWriters,
  }: DomainRouteDeps,
): Promise<DelegationReminders> {
  // The back office: each domain's admin routes gate themselves (401 without a session, 403 for any other role).
  await app.register(workbookAdminRoutes, { db });
  await app.register(viewAsClientRoutes, { db, embedder });
  await app.register(syncRoutes, { db, biClient });
  await app.register(adminAuditRoutes, { db });
  await app.register(adminImportRoutes, { db, canInvite: true });
  await app.register(peopleRoutes, { auth, db, embedder, invitations });
  await app.register(invitationRoutes, { auth, db, config, invitations, shared });
  await app.register(adminInvitationRoutes, { auth, db, config, invitations });
  await app.register(signInAlertRoutes, { auth, db, config, shared });
  // A client's delegates (issue 23): the client's own routes, the admin's, and the firm's setting.
  await app.register(myDelegateRoutes, { db, invitations });
  await app.register(adminDelegateRoutes, { db, invitations });
  await app.register(delegationPolicyRoutes, { db });
  await app.register(signInPolicyRoutes, { db, config });
  await app.register(sessionRoutes, { auth, db });
  await app.register(householdRoutes, { db });
  // Clients are mailed a week before a delegation ends: from the app's start until it closes.
  const delegationReminders = useDelegationReminders(app, { db, config, ...reminders });
  await app.register(embedRoutes, {
    db,
    embedder,
    perMinute: config.embedRateLimitPerMinute,
    identities,
    // Audit rows take no lock (decision 023): a PostgreSQL pool commits several batches at once;
    // the embedded PGlite runs one statement at a time.
    auditWriters,
    shared,
  });
  return delegationReminders;
}
