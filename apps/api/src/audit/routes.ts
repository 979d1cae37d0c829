import {
  ZAuditEntrySchema,
  ZAuditExportQuerySchema,
  ZAuditListQuerySchema,
  ZAuditVerificationSchema,
  ZAuditVocabularySchema,
  ZErrorResponseSchema,
} from "@portal/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { countAudit, listAudit, type AuditFilters } from "./queries.ts";
import { auditCsvStream } from "./csv.ts";
import { actorOf, auditActor } from "./actor.ts";
import { recordAudit } from "./audit.ts";
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, isAuditAction } from "./actions.ts";
import { createAuditVerification } from "./verification.ts";
import { requireRole } from "../plugins/authenticate.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../lib/errors.ts";

const errors = { 400: ZErrorResponseSchema, 401: ZErrorResponseSchema, 403: ZErrorResponseSchema };

/** Filters naming an action or outcome the trail does not have are a mistake, not an empty answer. */
function knownVocabulary(filters: AuditFilters): AuditFilters {
  if (filters.action && !isAuditAction(filters.action)) {
    throw new AppError(400, `action must be one of the audit actions, e.g. client.updated.`, "INVALID_INPUT");
  }
  if (filters.outcome && !(AUDIT_OUTCOMES as readonly string[]).includes(filters.outcome)) {
    throw new AppError(400, `outcome must be one of ${AUDIT_OUTCOMES.join(", ")}.`, "INVALID_INPUT");
  }
  return filters;
}

/** The same address with other query values (the Link header's neighbours). */
function linkTo(request: FastifyRequest, set: Record<string, string | undefined>): string {
  const url = new URL(request.url, "http://placeholder");
  for (const [name, value] of Object.entries(set)) {
    if (value === undefined) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  return `${url.pathname}${url.search}`;
}

/**
 * The audit log (/admin/audit, issue 13 point 2): a page of the trail, the CSV export of everything a
 * filter matches, and whether the hash chain holds. Admin only.
 */
export const adminAuditRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  // Before the body is parsed or validated (authorization before validation): 401, then 403, then 400.
  app.addHook("onRequest", requireRole("admin"));
  const verification = createAuditVerification(db);

  app.get(
    "/api/admin/audit",
    {
      schema: {
        tags: ["audit"],
        querystring: ZAuditListQuerySchema,
        response: { 200: z.array(ZAuditEntrySchema), ...errors },
      },
    },
    async (request, reply) => {
      const query = request.query;
      knownVocabulary(query);
      const page = await listAudit(db, query);
      // Keyset paging (DEVIATIONS D50): the lists' headers, with cursors instead of offsets.
      reply.header("x-total-count", String(page.total));
      if (page.capped) reply.header("x-total-count-capped", "true");
      const links: string[] = [];
      if (page.older !== null) {
        links.push(`<${linkTo(request, { before: String(page.older), after: undefined })}>; rel="next"`);
      }
      if (page.newer !== null) {
        links.push(`<${linkTo(request, { after: String(page.newer), before: undefined })}>; rel="prev"`);
      }
      if (links.length > 0) reply.header("link", links.join(", "));
      reply.header("access-control-expose-headers", "X-Total-Count, X-Total-Count-Capped, Link");
      reply.header("cache-control", "no-store");
      return page.rows;
    },
  );

  app.get(
    "/api/admin/audit.csv",
    {
      schema: {
        tags: ["audit"],
        querystring: ZAuditExportQuerySchema,
        // A text/csv stream, which is never serialised as JSON.
        response: { 200: z.unknown().describe("CSV, one line per matching row"), ...errors },
      },
    },
    async (request, reply) => {
      const filters = knownVocabulary(request.query);
      // Who took a copy of the trail, and of which part. Written before counting, so an export that
      // matches its own row counts and carries it.
      await recordAudit(db, {
        action: "audit.exported",
        outcome: "success",
        targetType: "audit_log",
        details: {
          filters: Object.fromEntries(
            Object.entries(filters).map(([name, value]) => [
              name,
              value instanceof Date ? value.toISOString() : value,
            ]),
          ),
        },
        ...auditActor(actorOf(request)),
      });
      // The total first, so the screen can show how far a large export has come.
      const total = await countAudit(db, filters);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="audit-log-${day}.csv"`)
        .header("x-total-count", String(total))
        .header("access-control-expose-headers", "X-Total-Count, Content-Disposition")
        .header("cache-control", "no-store")
        .send(auditCsvStream(db, filters));
    },
  );

  app.get(
    "/api/admin/audit/vocabulary",
    { schema: { tags: ["audit"], response: { 200: ZAuditVocabularySchema, ...errors } } },
    async () => ({ actions: [...AUDIT_ACTIONS].sort(), outcomes: [...AUDIT_OUTCOMES] }),
  );

  app.get(
    "/api/admin/audit/verify",
    { schema: { tags: ["audit"], response: { 200: ZAuditVerificationSchema, ...errors } } },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return verification.current();
    },
  );
};
