import {
  ZErrorResponseSchema,
  ZMyWorkbooksResponseSchema,
  ZProvisionAndEmbedRequestSchema,
  ZProvisionAndEmbedResponseSchema,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { AccessCache } from "../access/access-cache.ts";
import { viewingIdentity, type EmbedIdentity } from "../access/embed-identity.ts";
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
  const identityOf = (principal: Principal) =>
    identities.read(`${principal.role}:${principal.userId}`, () => viewingIdentity(db, principal));

  app.get(
    "/api/me/workbooks",
    {
      schema: { tags: ["viewing"], response: { 200: ZMyWorkbooksResponseSchema, 401: ZErrorResponseSchema } },
    },
    async (request) => {
      const identity = await identityOf(request.principal!);
      return (identity?.workbooks ?? []).map((w) => ({
        id: w.id,
        workbook_name: w.workbookName,
        team_name: w.teamName,
      }));
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
      const identity = await identityOf(principal);
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
          targetType: "workbook",
          targetId: request.body.workbookId,
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
      await audit.record({
        action: "embed.issued",
        outcome: "success",
        actorUserId: principal.userId,
        actorEmail: principal.email,
        targetType: "workbook",
        targetId: String(workbook.id),
        details: {
          purpose: "view",
          workbook: workbook.workbookName,
          clientIds: identity.clientIds,
          jti: minted.jti,
          expiresAt: minted.expiresAt.toISOString(),
        },
        ...source,
      });
      return reply.header("cache-control", "no-store").send({ embedUrl: minted.url });
    },
  );
};
