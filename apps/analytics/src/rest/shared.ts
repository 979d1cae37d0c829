import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AnalyticsConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { TSigmaErrorCode } from "../error-codes.ts";

/** What every resource's routes need: the configuration, the database and the organisation's ids. */
export interface RestContext {
  config: AnalyticsConfig;
  db: Database;
  /** `organizationId` of every answer. */
  orgId: string;
  /**
   * The organisation's owner: the member the API and embed credentials belong to, and so the author
   * (`createdBy`, `updatedBy`, `addedBy`, `ownerId`) of everything made through them (stored as null).
   */
  ownerId: string;
}

/** A UUID-shaped id derived from `seed` (stable across restarts, different per organisation). */
export function stableId(seed: string): string {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function restContext(config: AnalyticsConfig, db: Database): RestContext {
  return {
    config,
    db,
    orgId: stableId(`org:${config.orgSlug}`),
    ownerId: stableId(`owner:${config.orgSlug}`),
  };
}

/**
 * An answer in Sigma's ApiError shape `{message, code, requestId}`. The status picks the code: 400 EINVAL,
 * 401 EPERM (unknown credentials), 403 EACCES, 404 ENOENT, 409 EEXIST, anything else UNKNOWN.
 */
export class ApiError extends Error {
  readonly code: TSigmaErrorCode;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.code = codeOfStatus(status);
  }
}

export function codeOfStatus(status: number): TSigmaErrorCode {
  const codes: Record<number, TSigmaErrorCode> = {
    400: "EINVAL",
    401: "EPERM",
    403: "EACCES",
    404: "ENOENT",
    409: "EEXIST",
  };
  return codes[status] ?? "UNKNOWN";
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: ApiError) {
  return reply
    .code(error.status)
    .send({ message: error.message, code: error.code, requestId: String(request.id) });
}

/** `value` read with `schema`, or a 400 naming every problem. */
export function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const res = schema.safeParse(value ?? {});
  if (!res.success) {
    throw new ApiError(
      400,
      res.error.issues.map((i) => `${i.path.join(".") || "request"}: ${i.message}`).join("; "),
    );
  }
  return res.data;
}

/** A boolean query parameter (`true` or `false`). */
export const zQueryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

/** `limit` (at most 1,000) and `page` (the previous answer's `nextPage`). */
export const ZPagingQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  page: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/)
    .optional(),
});
export const DEFAULT_PAGE_SIZE = 50;

/** The offset a page token stands for (tokens are opaque to clients). */
export function decodePageToken(page: string | undefined): number {
  if (!page) return 0;
  const offset = Number(Buffer.from(page, "base64url").toString("utf8"));
  if (!Number.isInteger(offset) || offset < 0) throw new ApiError(400, "Invalid page token.");
  return offset;
}

/** The token of the page after `entries`, or undefined on the last page. */
export function nextPageToken(offset: number, count: number, total: number): string | undefined {
  const next = offset + count;
  return next < total ? Buffer.from(String(next)).toString("base64url") : undefined;
}

/** A page in the definition's form: `entries` and `nextPage` (null on the last page), with `total`. */
export function pageAnswer<T>(entries: T[], offset: number, total: number) {
  return { entries, nextPage: nextPageToken(offset, entries.length, total) ?? null, total };
}

/**
 * listMembers and listTeams answer `oneOf` a bare array of every row (no `limit` nor `page`: the
 * definition's first form) or a page of `{entries, nextPage}` only (its second form, without `total`).
 */
export async function arrayOrPage<R extends object, T>(
  ctx: RestContext,
  query: { table: string; where: { sql: string; params: unknown[] }; order: string },
  paging: { limit?: number | undefined; page?: string | undefined },
  map: (row: R) => T,
): Promise<T[] | { entries: T[]; nextPage: string | null }> {
  const { table, where, order } = query;
  if (paging.limit === undefined && paging.page === undefined) {
    const all = await ctx.db.query<R>(`select * from ${table} ${where.sql} ${order}`, where.params);
    return all.rows.map(map);
  }
  const limit = paging.limit ?? DEFAULT_PAGE_SIZE;
  const offset = decodePageToken(paging.page);
  const n = where.params.length;
  const [total, rows] = await Promise.all([
    ctx.db.query<{ n: number }>(`select count(*)::int as n from ${table} ${where.sql}`, where.params),
    ctx.db.query<R>(`select * from ${table} ${where.sql} ${order} limit $${n + 1} offset $${n + 2}`, [
      ...where.params,
      limit,
      offset,
    ]),
  ]);
  const entries = rows.rows.map(map);
  return { entries, nextPage: nextPageToken(offset, entries.length, total.rows[0]?.n ?? 0) ?? null };
}

/**
 * A `WHERE` clause from conditions, each `[sql with one $?, value]` or a plain SQL text; false/undefined
 * entries are skipped. Parameters are numbered from `first`.
 */
export function whereClause(
  conditions: readonly (readonly [string, unknown] | string | false | undefined)[],
  first = 1,
): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const c of conditions) {
    if (!c) continue;
    if (typeof c === "string") {
      parts.push(c);
      continue;
    }
    params.push(c[1]);
    parts.push(c[0].replace("$?", `$${first + params.length - 1}`));
  }
  return { sql: parts.length ? `where ${parts.join(" and ")}` : "", params };
}

export const iso = (d: Date | string) => new Date(d).toISOString();

/** A unique index refused the write (two requests creating the same thing at once). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "23505";
}

export interface AuditColumns {
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** `createdBy`, `updatedBy`, `createdAt`, `updatedAt` of a row (null authors: the organisation's owner). */
export function auditFields(r: AuditColumns, ctx: RestContext) {
  return {
    createdBy: r.created_by ?? ctx.ownerId,
    updatedBy: r.updated_by ?? ctx.ownerId,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}
