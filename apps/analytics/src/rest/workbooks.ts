import type { FastifyInstance } from "fastify";
import type { TSigmaWorkbook } from "@portal/sigma";
import type { Queryable } from "../db/database.ts";
import { slugOf } from "../workbooks/catalog.ts";
import {
  ApiError,
  DEFAULT_PAGE_SIZE,
  ZPagingQuerySchema,
  auditFields,
  decodePageToken,
  pageAnswer,
  parse,
  zQueryBoolean,
  type AuditColumns,
  type RestContext,
} from "./shared.ts";

export interface WorkbookRow extends AuditColumns {
  workbook_id: string;
  url_id: string;
  name: string;
  description: string | null;
  path: string;
  latest_version: number;
  owner_id: string | null;
  is_archived: boolean;
}

/** The workbook object (11 required fields); `url` in Sigma's form `<public url>/<org>/workbook/<Name>-<urlId>`. */
function toWorkbook(r: WorkbookRow, ctx: RestContext): TSigmaWorkbook {
  return {
    workbookId: r.workbook_id,
    workbookUrlId: r.url_id,
    name: r.name,
    url: `${ctx.config.publicUrl}/${ctx.config.orgSlug}/workbook/${slugOf(r.name)}-${r.url_id}`,
    path: r.path,
    latestVersion: r.latest_version,
    ownerId: r.owner_id ?? ctx.ownerId,
    ...auditFields(r, ctx),
    ...(r.is_archived ? { isArchived: true } : {}),
    ...(r.description ? { description: r.description } : {}),
  };
}

/** A workbook by id (its `workbookId` is also its inode id), archived ones included. */
export async function findWorkbook(db: Queryable, workbookId: string): Promise<WorkbookRow | undefined> {
  const res = await db.query<WorkbookRow>("select * from analytics.workbooks where workbook_id = $1", [
    workbookId,
  ]);
  return res.rows[0];
}

/** `isArchived=true` also lists archived workbooks ("Return archived workbooks."). */
const ZListQuerySchema = ZPagingQuerySchema.extend({ isArchived: zQueryBoolean.optional() });

export function registerWorkbookRoutes(v2: FastifyInstance, ctx: RestContext): void {
  // listWorkbooks always answers a page.
  v2.get("/workbooks", async (request) => {
    const q = parse(ZListQuerySchema, request.query);
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const offset = decodePageToken(q.page);
    const where = q.isArchived ? "" : "where not is_archived";
    const total = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from analytics.workbooks ${where}`,
    );
    const rows = await ctx.db.query<WorkbookRow>(
      `select * from analytics.workbooks ${where} order by name, workbook_id limit $1 offset $2`,
      [limit, offset],
    );
    return pageAnswer(
      rows.rows.map((r) => toWorkbook(r, ctx)),
      offset,
      total.rows[0]?.n ?? 0,
    );
  });

  v2.get<{ Params: { workbookId: string } }>("/workbooks/:workbookId", async (request) => {
    const row = await findWorkbook(ctx.db, request.params.workbookId);
    if (!row) throw new ApiError(404, "Workbook not found.");
    return toWorkbook(row, ctx);
  });
}
