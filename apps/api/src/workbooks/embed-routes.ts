import {
  ZErrorResponseSchema,
  ZMyClientsResponseSchema,
  ZMyWorkbooksResponseSchema,
  ZViewClientQuerySchema,
  ZProvisionAndEmbedRequestSchema,
  ZProvisionAndEmbedResponseSchema,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { AccessCache } from "../access/access-cache.ts";
import { viewableClients, viewingIdentity, type EmbedIdentity } from "../access/embed-identity.ts";
import { sql } from "drizzle-orm";
import { createAuditAppender } from "../audit/audit.ts";
import { enqueueOutbox } from "../outbox/requests.ts";
import { rows } from "../db/rows.ts";
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../lib/errors.ts";
import type { Principal } from "../plugins/authenticate.ts";
import type { SharedStore } from "../lib/redis.ts";
import type { Embedder } from "../sigma/embedder.ts";

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

/** Queues one lookup of an admin's email in the BI service, unless one is already waiting. */
async function queueAdminLink(db: Database, email: string) {
  const subject = email.toLowerCase();
  const waiting = rows<unknown>(
    await db.execute(sql`
      select 1 from provisioning_requests
       where kind = 'member.link' and subject = ${subject} and status <> 'done' limit 1`),
  );
  if (waiting.length === 0) {
    await enqueueOutbox(db, { kind: "member.link", payload: { email } });
  }
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
      try {
        await limiter.consume(principal.userId);
      } catch {
        throw new AppError(
          429,
          "Too many workbook requests. Please wait a minute and try again.",
          "RATE_LIMITED",
        );
      }
      const cId = request.body.clientId;
      const identity = await identityOf(principal, cId);
      const workbook = identity?.workbooks.find((w) => w.workbookName === request.body.workbookId);
      const source = {
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? null,
        requestId: request.id,
      };
      if (!identity || !workbook) {
        await audit.record({
          action: "embed.denied",
          outcome: "denied",
          actorUserId: principal.userId,
          actorEmail: principal.email,
          targetType: cId === undefined ? "workbook" : "client",
          targetId: cId === undefined ? request.body.workbookId : String(cId),
          ...(cId !== undefined && { details: { workbook: request.body.workbookId } }),
          ...source,
        });
        throw notFound("Workbook not found.");
      }
      // The portal never provisions admins: the first preview has their email looked up in the BI service,
      // so that an admin who also signs in to Sigma directly gets tokens without user claims from then on.
      if (principal.role === "admin" && !identity.user.linked) await queueAdminLink(db, principal.email);
      // The embed session never outlives the portal session it was opened from.
      const minted = await embedder.mint(identity.user, workbook.workbookName, {
        notAfter: new Date(principal.sessionExpiresAt),
      });
      const details = {
        purpose: "view",
        workbook: workbook.workbookName,
        clientIds: identity.clientIds,
        jti: minted.jti,
        expiresAt: minted.expiresAt.toISOString(),
      };
      const { delegation } = identity;
      if (delegation) {
        // A delegate's view names both people: the delegate acts, the client is viewed (decision 020).
        await audit.record({
          action: "embed.issued",
          outcome: "success",
          actorUserId: principal.userId,
          actorEmail: principal.email,
          targetType: "client",
          targetId: String(delegation.cId),
          details: {
            ...details,
            workbookId: workbook.id,
            delegationId: delegation.id,
            viewedClient: { email: delegation.clientEmail, name: delegation.clientName },
          },
          ...source,
        });
        await db.execute(sql`update delegations set last_viewed_at = now() where id = ${delegation.id}`);
      } else {
        await audit.record({
          action: "embed.issued",
          outcome: "success",
          actorUserId: principal.userId,
          actorEmail: principal.email,
          targetType: "workbook",
          targetId: String(workbook.id),
          details,
          ...source,
        });
      }
      return reply.header("cache-control", "no-store").send({ embedUrl: minted.url });
    },
  );
};
