import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { TSigmaGrant } from "@portal/sigma";
import type { Queryable } from "../db/database.ts";
import { findWorkbook } from "./workbooks.ts";
import {
  ApiError,
  DEFAULT_PAGE_SIZE,
  ZPagingQuerySchema,
  auditFields,
  decodePageToken,
  isUniqueViolation,
  pageAnswer,
  parse,
  whereClause,
  zQueryBoolean,
  type AuditColumns,
  type RestContext,
} from "./shared.ts";

interface GrantRow extends AuditColumns {
  grant_id: string;
  workbook_id: string;
  team_id: string | null;
  member_id: string | null;
  permission: WorkbookPermission;
}

/** What a workbook can be shared with, lowest first ("Can view", "Can explore", "Can edit"). */
const WORKBOOK_PERMISSIONS = ["view", "explore", "edit"] as const;
type WorkbookPermission = (typeof WORKBOOK_PERMISSIONS)[number];

/** Every value of the definition's three permission enums (connection, document, version tag). */
const ZPermissionSchema = z.enum([
  "admin",
  "annotate",
  "update",
  "usage",
  "writeback",
  "create",
  "organize",
  "explore",
  "view",
  "edit",
  "apply",
]);

/** createGrant's body: exactly one grantee, a member or a team. */
const ZCreateGrantSchema = z.object({
  grantee: z.union([
    z.strictObject({ memberId: z.string().min(1).max(100) }),
    z.strictObject({ teamId: z.string().min(1).max(100) }),
  ]),
  permission: ZPermissionSchema,
  inodeId: z.string().min(1).max(100),
  tagId: z.string().min(1).max(100).optional(),
});

const ZListQuerySchema = ZPagingQuerySchema.extend({
  inodeId: z.string().max(100).optional(),
  teamId: z.string().max(100).optional(),
  userId: z.string().max(100).optional(),
  directGrantsOnly: zQueryBoolean.optional(),
});

/** The grant object (11 required fields); the only documents here are workbooks. */
function toGrant(r: GrantRow, ctx: RestContext): TSigmaGrant {
  return {
    grantId: r.grant_id,
    inodeId: r.workbook_id,
    organizationId: ctx.orgId,
    memberId: r.member_id,
    teamId: r.team_id,
    permission: r.permission,
    ...auditFields(r, ctx),
    inodeType: "workbook",
  };
}

async function findGrant(db: Queryable, grantId: string): Promise<GrantRow> {
  const res = await db.query<GrantRow>("select * from analytics.workbook_grants where grant_id = $1", [
    grantId,
  ]);
  if (!res.rows[0]) throw new ApiError(404, "Grant not found.");
  return res.rows[0];
}

async function assertExists(db: Queryable, table: "members" | "teams", column: string, id: string) {
  const res = await db.query(`select 1 from analytics.${table} where ${column} = $1`, [id]);
  if (res.rows.length === 0) throw new ApiError(404, `There is no ${table.slice(0, -1)} ${id}.`);
}

async function listGrants(ctx: RestContext, query: unknown) {
  const q = parse(ZListQuerySchema, query);
  // Every grant here is made on the workbook itself, so `directGrantsOnly` changes nothing; a member's
  // grants (`userId`) are the ones made to them, not to their teams.
  const where = whereClause([
    q.inodeId !== undefined && ["workbook_id = $?", q.inodeId],
    q.teamId !== undefined && ["team_id = $?", q.teamId],
    q.userId !== undefined && ["member_id = $?", q.userId],
  ]);
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  const offset = decodePageToken(q.page);
  const n = where.params.length;
  const total = await ctx.db.query<{ n: number }>(
    `select count(*)::int as n from analytics.workbook_grants ${where.sql}`,
    where.params,
  );
  const rows = await ctx.db.query<GrantRow>(
    `select * from analytics.workbook_grants ${where.sql}
      order by created_at, grant_id limit $${n + 1} offset $${n + 2}`,
    [...where.params, limit, offset],
  );
  return pageAnswer(
    rows.rows.map((r) => toGrant(r, ctx)),
    offset,
    total.rows[0]?.n ?? 0,
  );
}

/**
 * createGrant ("Create or update a grant"): only ever raises access. A grantee that already has the
 * permission or a higher one keeps their grant, unchanged; a lower one is raised.
 */
async function createGrant(ctx: RestContext, body: unknown): Promise<TSigmaGrant> {
  const b = parse(ZCreateGrantSchema, body);
  if (!(WORKBOOK_PERMISSIONS as readonly string[]).includes(b.permission)) {
    throw new ApiError(400, `permission: ${b.permission} is not a permission on a workbook.`);
  }
  if (b.tagId !== undefined) throw new ApiError(404, `There is no version tag ${b.tagId}.`);
  const permission = b.permission as WorkbookPermission;
  const grantee =
    "teamId" in b.grantee
      ? { column: "team_id" as const, id: b.grantee.teamId }
      : { column: "member_id" as const, id: b.grantee.memberId };
  const attempt = () =>
    ctx.db.transaction(async (tx) => {
      if (!(await findWorkbook(tx, b.inodeId))) throw new ApiError(404, `There is no workbook ${b.inodeId}.`);
      if (grantee.column === "team_id") await assertExists(tx, "teams", "team_id", grantee.id);
      else await assertExists(tx, "members", "member_id", grantee.id);
      const existing = await tx.query<GrantRow>(
        `select * from analytics.workbook_grants where workbook_id = $1 and ${grantee.column} = $2 for update`,
        [b.inodeId, grantee.id],
      );
      const current = existing.rows[0];
      if (!current) {
        const created = await tx.query<GrantRow>(
          `insert into analytics.workbook_grants (grant_id, workbook_id, ${grantee.column}, permission)
           values ($1, $2, $3, $4) returning *`,
          [randomUUID(), b.inodeId, grantee.id, permission],
        );
        return created.rows[0] as GrantRow;
      }
      const rank = (p: WorkbookPermission) => WORKBOOK_PERMISSIONS.indexOf(p);
      if (rank(current.permission) >= rank(permission)) return current;
      const raised = await tx.query<GrantRow>(
        `update analytics.workbook_grants set permission = $2, updated_by = null, updated_at = now()
          where grant_id = $1 returning *`,
        [current.grant_id, permission],
      );
      return raised.rows[0] as GrantRow;
    });
  try {
    return toGrant(await attempt(), ctx);
  } catch (error) {
    // The same grant created at the same moment by another request: this one now finds it.
    if (isUniqueViolation(error)) return toGrant(await attempt(), ctx);
    throw error;
  }
}

export function registerGrantRoutes(v2: FastifyInstance, ctx: RestContext): void {
  v2.get("/grants", (request) => listGrants(ctx, request.query));
  v2.post("/grants", (request) => createGrant(ctx, request.body));
  v2.get<{ Params: { grantId: string } }>("/grants/:grantId", async (request) =>
    toGrant(await findGrant(ctx.db, request.params.grantId), ctx),
  );
  // deleteGrant answers the grant it deleted.
  v2.delete<{ Params: { grantId: string } }>("/grants/:grantId", async (request) => {
    const grant = await findGrant(ctx.db, request.params.grantId);
    await ctx.db.query("delete from analytics.workbook_grants where grant_id = $1", [grant.grant_id]);
    return toGrant(grant, ctx);
  });
}
