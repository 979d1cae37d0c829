import {
  ZErrorResponseSchema,
  ZMyClientsResponseSchema,
  ZMyWorkbooksResponseSchema,
  ZViewClientQuerySchema,
  ZProvisionAndEmbedRequestSchema,
  ZProvisionAndEmbedResponseSchema,
  ZWorkbookStartQuerySchema,
  ZWorkbookStartResponseSchema,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { AccessCache } from "../access/access-cache.ts";
import { viewableClients, viewingIdentity, type EmbedIdentity } from "../access/embed-identity.ts";
import { createAuditAppender } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { AppError, forbidden, notFound } from "../lib/errors.ts";
import type { Principal } from "../plugins/authenticate.ts";
import type { SharedStore } from "../lib/redis.ts";
import type { Embedder } from "../sigma/embedder.ts";
import { createEmbedIssuer } from "./embed-issue.ts";

export interface EmbedRoutesOptions {
  db: Database;
  embedder: Embedder;
  /** Embed URLs one person may mint per minute. */
  perMinute?: number;
  /** Audit statements in flight at once (PostgreSQL: several; PGlite: one). */
  auditWriters?: number;
  /** Recent viewing decisions per person, cleared by every change (decision 005). */
  identities: AccessCache<EmbedIdentity>;
  /** With REDIS_URL the per-person limit is shared by every instance (decision 009). */
  shared?: SharedStore | undefined;
}

/** Embed URLs per person per minute: in this process, or in Redis (this process's count while Redis is down). */
export function embedLimiter(perMinute: number, shared?: SharedStore): RateLimiterAbstract {
  const local = new RateLimiterMemory({ keyPrefix: "embed", points: perMinute, duration: 60 });
  if (!shared) return local;
  return new RateLimiterRedis({
    storeClient: shared.client,
    keyPrefix: `${shared.prefix}embed`,
    points: perMinute,
    duration: 60,
    insuranceLimiter: local,
  });
}

const errors = {
  400: ZErrorResponseSchema,
  401: ZErrorResponseSchema,
  404: ZErrorResponseSchema,
  429: ZErrorResponseSchema,
};

/**
 * Workbook viewing for signed-in clients and employees. What a person may see is decided here, from
 * the database: a client's assigned workbooks, an employee's clients' workbooks. Anything else answers
 * 404 without saying whether the workbook exists.
 */
export const embedRoutes: FastifyPluginAsyncZod<EmbedRoutesOptions> = async (
  app,
  { db, embedder, perMinute = 60, identities, auditWriters = 1, shared },
) => {
  const limiter = embedLimiter(perMinute, shared);
  const audit = createAuditAppender(db, { writers: auditWriters });
  // A delegate's decision is kept no longer than their delegation lasts (decision 020).
  const identityOf = (principal: Principal, cId?: number) =>
    identities.read(
      `${principal.role}:${principal.userId}:${cId ?? ""}`,
      () => viewingIdentity(db, principal, cId),
      (identity) => identity.expiresAt?.getTime() ?? Infinity,
    );
  const listed = (workbooks: EmbedIdentity["workbooks"]) =>
    workbooks.map((w) => ({ id: w.id, workbook_name: w.workbookName, team_name: w.teamName }));
  const issuer = createEmbedIssuer({ db, embedder, audit });
  const withinLimit = (principal: Principal) =>
    limiter.consume(principal.userId).then(
      () => true,
      () => false,
    );
  /**
   * Someone whose only role is `delegate` has no workbooks of their own: without a client in the address the
   * SPA opens the first client of `/api/me/clients` (features/workbooks/utils/viewed-client.ts), so does this.
   */
  const firstClientOfDelegate = async (principal: Principal) =>
    principal.role === "delegate"
      ? ((await viewableClients(db, principal)).find((c) => !c.self)?.cId ?? undefined)
      : undefined;

  app.get(
    "/api/me/workbooks",
    {
      schema: {
        tags: ["viewing"],
        querystring: ZViewClientQuerySchema,
        response: { 200: ZMyWorkbooksResponseSchema, ...errors },
      },
    },
    async (request) => {
      const cId = request.query.client;
      const identity = await identityOf(request.principal!, cId);
      // Someone else's client this person may not view: not found, whether or not it exists.
      if (!identity && cId !== undefined) throw notFound("Client not found.");
      return listed(identity?.workbooks ?? []);
    },
  );

  app.get(
    "/api/me/clients",
    { schema: { tags: ["viewing"], response: { 200: ZMyClientsResponseSchema, 401: ZErrorResponseSchema } } },
    async (request, reply) => {
      const clients = await viewableClients(db, request.principal!);
      return reply.header("cache-control", "no-store").send(
        clients.map((c) => ({
          c_id: c.cId,
          name: c.name,
          self: c.self,
          expires_at: c.expiresAt?.toISOString() ?? null,
          workbooks: listed(c.workbooks),
        })),
      );
    },
  );

  app.post(
    "/api/sigma/provision-and-embed",
    {
      // Issuing a URL only appends to the audit trail: it changes no access, so caches stay.
      config: { keepsAccess: true },
      schema: {
        tags: ["viewing"],
        body: ZProvisionAndEmbedRequestSchema,
        response: { 200: ZProvisionAndEmbedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      if (!(await withinLimit(principal))) {
        throw new AppError(
          429,
          "Too many workbook requests. Please wait a minute and try again.",
          "RATE_LIMITED",
        );
      }
      const cId = request.body.clientId;
      const identity = await identityOf(principal, cId);
      const workbook = identity?.workbooks.find((w) => w.workbookName === request.body.workbookId);
      if (!identity || !workbook) {
        await issuer.deny(request, principal, request.body.workbookId, cId);
        throw notFound("Workbook not found.");
      }
      const embedUrl = await issuer.issue(request, principal, identity, workbook);
      return reply.header("cache-control", "no-store").send({ embedUrl });
    },
  );

  /**
   * The start of a workbook view in one answer (decision 024): whose workbooks `/` or `/workbooks/{name}`
   * shows (`?client=`, or for someone with no workbooks of their own the first client they view, as the SPA
   * chooses), their list, the workbook shown first (the one named, else the first) and its one-time embed URL,
   * decided, minted and audited exactly as `/api/me/workbooks` and provision-and-embed do. The page has the
   * browser ask for it as it arrives (`Link: rel=preload`, plugins/web-files.ts), beside the session.
   */
  app.get(
    "/api/me/workbook-start",
    {
      schema: {
        tags: ["viewing"],
        querystring: ZWorkbookStartQuerySchema,
        response: { 200: ZWorkbookStartResponseSchema, ...errors, 403: ZErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      // It mints on a GET (a preload can be nothing else): only the portal's own pages may make a browser
      // ask for it, never a link or another site's page.
      const site = request.headers["sec-fetch-site"];
      if (site !== undefined && site !== "same-origin") throw forbidden("Cross-site request refused.");
      const cId = request.query.client ?? (await firstClientOfDelegate(principal));
      const identity = await identityOf(principal, cId);
      // Someone else's client this person may not view: not found, whether or not it exists.
      if (!identity && cId !== undefined) throw notFound("Client not found.");
      const workbooks = identity?.workbooks ?? [];
      const named = request.query.workbook;
      const workbook = workbooks.find((w) => w.workbookName === named) ?? workbooks[0];
      // Admins are sent from `/` to the back office before anything is shown: nothing is opened for them.
      // Over the per-person limit, no URL: the page then asks provision-and-embed, which says so (429).
      const opens = identity && workbook && principal.role !== "admin" && (await withinLimit(principal));
      const embedUrl = opens ? await issuer.issue(request, principal, identity, workbook) : null;
      return reply.header("cache-control", "no-store").send({
        clientId: cId ?? null,
        workbooks: listed(workbooks),
        workbook: workbook?.workbookName ?? null,
        embedUrl,
      });
    },
  );
};
