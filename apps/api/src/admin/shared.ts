import { sql, type SQL } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuditSource } from "../audit/audit.ts";
import { AppError } from "../lib/errors.ts";

/** Who is making an admin change, and from where: goes into every audit row. */
export interface Actor extends AuditSource {
  userId: string;
  email: string;
}

export function actorOf(request: FastifyRequest): Actor {
  return {
    userId: request.principal!.userId,
    email: request.principal!.email,
    ip: request.ip,
    userAgent: request.headers["user-agent"] ?? null,
    requestId: request.id,
  };
}

export function auditActor(actor: Actor) {
  return {
    actorUserId: actor.userId,
    actorEmail: actor.email,
    ip: actor.ip ?? null,
    userAgent: actor.userAgent ?? null,
    requestId: actor.requestId ?? null,
  };
}

const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%` for LIKE, with the pattern characters in the search text taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/**
 * List search: every word of `q` must be the start of one of the columns ("oli ben" finds Olivia
 * Bennett). Each word is a range scan on a `lower(column) text_pattern_ops` index, so it stays fast
 * with a million rows (docs/decisions/003).
 */
export function prefixSearch(columns: SQL[], q: string): SQL {
  const words = q.split(/\s+/).filter(Boolean).slice(0, 6);
  if (words.length === 0) return sql`true`;
  return sql.join(
    words.map((word) => {
      const pattern = `${escapeLike(word)}%`;
      return sql`(${sql.join(
        columns.map((column) => sql`lower(${column}) like ${pattern}`),
        sql` or `,
      )})`;
    }),
    sql` and `,
  );
}

/** X-Total-Count and an RFC 8288 Link header with the next and previous pages. */
export function setPageHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { total: number; limit: number; offset: number },
) {
  reply.header("x-total-count", String(page.total));
  const links: string[] = [];
  const make = (offset: number, rel: string) => {
    const url = new URL(request.url, "http://placeholder");
    url.searchParams.set("limit", String(page.limit));
    url.searchParams.set("offset", String(offset));
    links.push(`<${url.pathname}${url.search}>; rel="${rel}"`);
  };
  if (page.offset + page.limit < page.total) make(page.offset + page.limit, "next");
  if (page.offset > 0) make(Math.max(0, page.offset - page.limit), "prev");
  if (links.length > 0) reply.header("link", links.join(", "));
  reply.header("access-control-expose-headers", "X-Total-Count, Link");
}

function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique-constraint race that slipped past the explicit checks still answers 409, not 500. */
export function rethrowConflict(error: unknown, message: string): never {
  if (pgCode(error) === "23505") throw new AppError(409, message, "CONFLICT");
  throw error;
}

export function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The list columns every client and employee row carries about its sign-in account `userId` (a column of
 * the row): whether its changes reached the BI service (`sync_status`, `sync_error`,
 * `sync_waiting_since`, DEVIATIONS D29), whether its Sigma member is managed in Sigma (`managed_in_sigma`),
 * and whether two-step verification is set up (D32).
 */
export function accountStateColumns(userId: SQL): SQL {
  return sql`
      (select case when bool_or(p.status = 'failed') then 'failed'
                   when bool_or(p.status = 'pending') then 'pending' else 'synced' end
         from provisioning_requests p where p.user_id = ${userId}) as sync_status,
      (select p.last_error from provisioning_requests p
        where p.user_id = ${userId} and p.status <> 'done' and p.last_error is not null
        order by p.seq limit 1) as sync_error,
      (select to_char(min(p.waiting_since) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         from provisioning_requests p
        where p.user_id = ${userId} and p.status = 'pending') as sync_waiting_since,
      (select u.two_factor_enabled from users u where u.id = ${userId}) as two_factor_enabled,
      coalesce((select b.user_kind <> 'embed' from users u join bi_members b on b.email = lower(u.email)
                 where u.id = ${userId}), false) as managed_in_sigma`;
}
