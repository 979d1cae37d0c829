import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  ZSigmaCreateTeamSchema,
  ZSigmaUpdateTeamMembersSchema,
  type TSigmaTeam,
  type TSigmaTeamMember,
} from "@portal/sigma";
import type { Queryable } from "../db/database.ts";
import {
  ApiError,
  arrayOrPage,
  DEFAULT_PAGE_SIZE,
  ZPagingQuerySchema,
  auditFields,
  decodePageToken,
  isUniqueViolation,
  pageAnswer,
  parse,
  whereClause,
  type AuditColumns,
  type RestContext,
} from "./shared.ts";

interface TeamRow extends AuditColumns {
  team_id: string;
  name: string;
  description: string | null;
  visibility: "public" | "private" | null;
  is_archived: boolean;
  workspace_id: string | null;
}

/** The team object (8 required fields); `isArchived` only when true. */
function toTeam(r: TeamRow, ctx: RestContext): TSigmaTeam {
  return {
    teamId: r.team_id,
    ...auditFields(r, ctx),
    name: r.name,
    description: r.description,
    visibility: r.visibility,
    ...(r.is_archived ? { isArchived: true } : {}),
  };
}

const ZListQuerySchema = ZPagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  visibility: z.enum(["public", "private"]).optional(),
});

const DUPLICATE_NAME = "A team with this name already exists.";

async function findTeam(db: Queryable, teamId: string): Promise<TeamRow> {
  const res = await db.query<TeamRow>("select * from analytics.teams where team_id = $1", [teamId]);
  if (!res.rows[0]) throw new ApiError(404, "Team not found.");
  return res.rows[0];
}

async function memberIdsOf(db: Queryable, teamId: string): Promise<string[]> {
  const res = await db.query<{ member_id: string }>(
    "select member_id from analytics.team_members where team_id = $1 order by member_id",
    [teamId],
  );
  return res.rows.map((r) => r.member_id);
}

/** Members named in a request; each must exist, and none may be SCIM-inactive (the definition's rule). */
async function assertMembersMayChange(db: Queryable, memberIds: readonly string[], field: string) {
  if (memberIds.length === 0) return;
  const res = await db.query<{ member_id: string; is_inactive: boolean }>(
    "select member_id, is_inactive from analytics.members where member_id = any($1::text[])",
    [[...memberIds]],
  );
  for (const id of memberIds) {
    const m = res.rows.find((r) => r.member_id === id);
    if (!m) throw new ApiError(400, `${field}: there is no member ${id}.`);
    if (m.is_inactive) throw new ApiError(400, `${field}: member ${id} is inactive.`);
  }
}

async function listTeams(ctx: RestContext, query: unknown) {
  const q = parse(ZListQuerySchema, query);
  const where = whereClause([
    q.name !== undefined && ["lower(name) = lower($?)", q.name],
    q.description !== undefined && ["description = $?", q.description],
    q.visibility !== undefined && ["visibility = $?", q.visibility],
  ]);
  return arrayOrPage<TeamRow, ReturnType<typeof toTeam>>(
    ctx,
    { table: "analytics.teams", where, order: "order by created_at, team_id" },
    q,
    (r) => toTeam(r, ctx),
  );
}

async function createTeam(ctx: RestContext, body: unknown) {
  const b = parse(ZSigmaCreateTeamSchema, body);
  try {
    return await ctx.db.transaction(async (tx) => {
      const exists = await tx.query("select 1 from analytics.teams where lower(name) = lower($1)", [b.name]);
      if (exists.rows.length) throw new ApiError(409, DUPLICATE_NAME);
      const members = [...new Set(b.members ?? [])];
      await assertMembersMayChange(tx, members, "members");
      const created = await tx.query<TeamRow>(
        `insert into analytics.teams (team_id, name, description, visibility, workspace_id)
         values ($1, $2, $3, $4, $5) returning *`,
        [
          randomUUID(),
          b.name,
          b.description ?? null,
          b.visibility ?? "private",
          b.createTeamFolder ? randomUUID() : null,
        ],
      );
      const team = created.rows[0] as TeamRow;
      await tx.query(
        "insert into analytics.team_members (team_id, member_id) select $1, unnest($2::text[])",
        [team.team_id, members],
      );
      return { ...toTeam(team, ctx), members: members.sort(), workspaceId: team.workspace_id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, DUPLICATE_NAME);
    throw error;
  }
}

async function getTeamMembers(ctx: RestContext, teamId: string, query: unknown) {
  const q = parse(ZPagingQuerySchema, query);
  await findTeam(ctx.db, teamId);
  const limit = q.limit ?? DEFAULT_PAGE_SIZE;
  const offset = decodePageToken(q.page);
  const total = await ctx.db.query<{ n: number }>(
    "select count(*)::int as n from analytics.team_members where team_id = $1",
    [teamId],
  );
  const rows = await ctx.db.query<{ member_id: string; is_team_admin: boolean; added_by: string | null }>(
    `select tm.member_id, tm.is_team_admin, tm.added_by
       from analytics.team_members tm join analytics.members m using (member_id)
      where tm.team_id = $1 order by m.created_at, m.member_id limit $2 offset $3`,
    [teamId, limit, offset],
  );
  const entries: TSigmaTeamMember[] = rows.rows.map((r) => ({
    userId: r.member_id,
    isTeamAdmin: r.is_team_admin,
    addedBy: r.added_by ?? ctx.ownerId,
  }));
  return pageAnswer(entries, offset, total.rows[0]?.n ?? 0);
}

async function updateTeamMembers(ctx: RestContext, teamId: string, body: unknown) {
  const b = parse(ZSigmaUpdateTeamMembersSchema, body);
  await findTeam(ctx.db, teamId);
  await ctx.db.transaction(async (tx) => {
    await assertMembersMayChange(tx, b.add ?? [], "add");
    await assertMembersMayChange(tx, b.remove ?? [], "remove");
    await tx.query(
      `insert into analytics.team_members (team_id, member_id) select $1, unnest($2::text[])
       on conflict do nothing`,
      [teamId, b.add ?? []],
    );
    await tx.query("delete from analytics.team_members where team_id = $1 and member_id = any($2::text[])", [
      teamId,
      b.remove ?? [],
    ]);
  });
  return {};
}

export function registerTeamRoutes(v2: FastifyInstance, ctx: RestContext): void {
  v2.get("/teams", (request) => listTeams(ctx, request.query));
  v2.post("/teams", (request) => createTeam(ctx, request.body));
  v2.get<{ Params: { teamId: string } }>("/teams/:teamId", async (request) => {
    const team = await findTeam(ctx.db, request.params.teamId);
    return { ...toTeam(team, ctx), members: await memberIdsOf(ctx.db, team.team_id) };
  });
  v2.get<{ Params: { teamId: string } }>("/teams/:teamId/members", (request) =>
    getTeamMembers(ctx, request.params.teamId, request.query),
  );
  v2.patch<{ Params: { teamId: string } }>("/teams/:teamId/members", (request) =>
    updateTeamMembers(ctx, request.params.teamId, request.body),
  );
}
