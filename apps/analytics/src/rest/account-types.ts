import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ZSigmaAccountTypeSchema } from "@portal/sigma";
import type { Queryable } from "../db/database.ts";
import {
  ApiError,
  DEFAULT_PAGE_SIZE,
  decodePageToken,
  nextPageToken,
  parse,
  type RestContext,
} from "./shared.ts";

/** listAccountTypes pages by `pageToken`/`pageSize` (at most 1,000, default 50), not by page/limit. */
const ZListQuerySchema = z.object({
  pageSize: z.coerce.number().int().min(1).max(1000).default(DEFAULT_PAGE_SIZE),
  pageToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/)
    .optional(),
});

interface AccountTypeRow {
  account_type_id: string;
  name: string;
  description: string;
  is_custom: boolean;
}

/** A `memberType` must name one of the organisation's account types (names are case-sensitive). */
export async function assertAccountType(db: Queryable, name: string): Promise<void> {
  const res = await db.query("select 1 from analytics.account_types where name = $1", [name]);
  if (res.rows.length === 0) throw new ApiError(400, `memberType: there is no account type named ${name}.`);
}

export function registerAccountTypeRoutes(v2: FastifyInstance, ctx: RestContext): void {
  v2.get("/accountTypes", async (request) => {
    const q = parse(ZListQuerySchema, request.query);
    const offset = decodePageToken(q.pageToken);
    const total = await ctx.db.query<{ n: number }>("select count(*)::int as n from analytics.account_types");
    const rows = await ctx.db.query<AccountTypeRow>(
      "select * from analytics.account_types order by position, name limit $1 offset $2",
      [q.pageSize, offset],
    );
    const entries: z.infer<typeof ZSigmaAccountTypeSchema>[] = rows.rows.map((r) => ({
      accountTypeId: r.account_type_id,
      accountTypeName: r.name,
      description: r.description,
      isCustom: r.is_custom,
    }));
    // `nextPageToken` is absent on the last page, never null.
    const next = nextPageToken(offset, entries.length, total.rows[0]?.n ?? 0);
    return { entries, ...(next ? { nextPageToken: next } : {}) };
  });
}
