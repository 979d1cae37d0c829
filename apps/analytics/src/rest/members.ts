import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ZSigmaCreateMemberSchema, ZSigmaUpdateMemberSchema, type TSigmaMember } from "@portal/sigma";
import type { Queryable } from "../db/database.ts";
import { endEmbedSessions } from "../embed/members.ts";
import { assertAccountType } from "./account-types.ts";
import {
  ApiError,
  arrayOrPage,
  ZPagingQuerySchema,
  auditFields,
  isUniqueViolation,
  parse,
  whereClause,
  zQueryBoolean,
  type AuditColumns,
  type RestContext,
} from "./shared.ts";

export interface MemberRow extends AuditColumns {
  member_id: string;
  email: string;
  first_name: string;
  last_name: string;
  member_type: string;
  user_kind: string;
  is_archived: boolean;
  is_inactive: boolean;
  profile_img_url: string | null;
  home_folder_id: string;
}

/** The member object (13 required fields); `isArchived`/`isInactive` only when true. */
export function toMember(r: MemberRow, ctx: RestContext): TSigmaMember {
  return {
    organizationId: ctx.orgId,
    memberId: r.member_id,
    memberType: r.member_type,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    profileImgUrl: r.profile_img_url,
    ...auditFields(r, ctx),
    homeFolderId: r.home_folder_id,
    userKind: r.user_kind,
    ...(r.is_archived ? { isArchived: true } : {}),
    ...(r.is_inactive ? { isInactive: true } : {}),
  };
}

/**
 * When nothing says otherwise a member is created with this account type: Sigma uses the organisation's
 * "Invitation default", else a built-in default it does not name; here, the lowest.
 */
export const INVITATION_DEFAULT_ACCOUNT_TYPE = "View";

const ZListQuerySchema = ZPagingQuerySchema.extend({
  email: z.string().max(254).optional(),
  /** Deprecated: an email filter too. */
  search: z.string().max(254).optional(),
  includeArchived: zQueryBoolean.optional(),
  includeInactive: zQueryBoolean.optional(),
});

const DUPLICATE_EMAIL = "A member with this email already exists.";

export async function findMember(db: Queryable, memberId: string): Promise<MemberRow> {
  const res = await db.query<MemberRow>("select * from analytics.members where member_id = $1", [memberId]);
  if (!res.rows[0]) throw new ApiError(404, "Member not found.");
  return res.rows[0];
}

async function listMembers(ctx: RestContext, query: unknown) {
  const q = parse(ZListQuerySchema, query);
  if (q.email !== undefined && q.search !== undefined) {
    throw new ApiError(400, "Using email and search together is not supported.");
  }
  const email = q.email ?? q.search;
  // Deactivated (isArchived) and SCIM-archived (isInactive) members are listed only when asked for.
  const where = whereClause([
    email !== undefined && ["lower(email) = lower($?)", email],
    !q.includeArchived && "not is_archived",
    !q.includeInactive && "not is_inactive",
  ]);
  return arrayOrPage<MemberRow, TSigmaMember>(
    ctx,
    { table: "analytics.members", where, order: "order by created_at, member_id" },
    q,
    (r) => toMember(r, ctx),
  );
}

async function createMember(ctx: RestContext, body: unknown): Promise<TSigmaMember> {
  const b = parse(ZSigmaCreateMemberSchema, body);
  const memberType = b.memberType ?? INVITATION_DEFAULT_ACCOUNT_TYPE;
  await assertAccountType(ctx.db, memberType);
  const userKind = b.userKind ?? (b.isGuest ? "guest" : "internal");
  try {
    return await ctx.db.transaction(async (tx) => {
      // Every member counts, deactivated ones too: they come back with PATCH isArchived false.
      const exists = await tx.query("select 1 from analytics.members where lower(email) = lower($1)", [
        b.email,
      ]);
      if (exists.rows.length) throw new ApiError(409, DUPLICATE_EMAIL);
      const created = await tx.query<MemberRow>(
        `insert into analytics.members (member_id, email, first_name, last_name, member_type, user_kind)
         values ($1, $2, $3, $4, $5, $6) returning *`,
        [randomUUID(), b.email, b.firstName, b.lastName, memberType, userKind],
      );
      const row = created.rows[0] as MemberRow;
      for (const t of b.addToTeams ?? []) {
        const team = await tx.query("select 1 from analytics.teams where team_id = $1", [t.teamId]);
        if (!team.rows.length) throw new ApiError(400, `addToTeams: there is no team ${t.teamId}.`);
        await tx.query(
          `insert into analytics.team_members (team_id, member_id, is_team_admin) values ($1, $2, $3)
           on conflict (team_id, member_id) do update set is_team_admin = excluded.is_team_admin`,
          [t.teamId, row.member_id, t.isTeamAdmin ?? false],
        );
      }
      return toMember(row, ctx);
    });
  } catch (error) {
    // Two creations at once: the unique index decides.
    if (isUniqueViolation(error)) throw new ApiError(409, DUPLICATE_EMAIL);
    throw error;
  }
}

async function updateMember(ctx: RestContext, memberId: string, body: unknown): Promise<TSigmaMember> {
  const b = parse(ZSigmaUpdateMemberSchema, body);
  await findMember(ctx.db, memberId);
  if (b.memberType !== undefined) await assertAccountType(ctx.db, b.memberType);
  try {
    return await ctx.db.transaction(async (tx) => {
      const res = await tx.query<MemberRow>(
        `update analytics.members set
           member_type = coalesce($2, member_type),
           first_name = coalesce($3, first_name),
           last_name = coalesce($4, last_name),
           email = coalesce($5, email),
           is_archived = coalesce($6, is_archived),
           is_inactive = coalesce($7, is_inactive),
           user_kind = coalesce($8, user_kind),
           profile_img_url = case when $9 then $10 else profile_img_url end,
           updated_by = null,
           updated_at = now()
         where member_id = $1 returning *`,
        [
          memberId,
          b.memberType ?? null,
          b.firstName ?? null,
          b.lastName ?? null,
          b.email ?? null,
          b.isArchived ?? null,
          b.isInactive ?? null,
          b.userKind ?? null,
          b.profileImgUrl !== undefined,
          b.profileImgUrl ?? null,
        ],
      );
      const row = res.rows[0] as MemberRow;
      if (row.is_archived || row.is_inactive) await endEmbedSessions(tx, memberId);
      return toMember(row, ctx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, DUPLICATE_EMAIL);
    throw error;
  }
}

export function registerMemberRoutes(v2: FastifyInstance, ctx: RestContext): void {
  v2.get("/members", (request) => listMembers(ctx, request.query));
  v2.post("/members", (request) => createMember(ctx, request.body));

  v2.get<{ Params: { memberId: string } }>("/members/:memberId", async (request) =>
    toMember(await findMember(ctx.db, request.params.memberId), ctx),
  );

  v2.patch<{ Params: { memberId: string } }>("/members/:memberId", (request) =>
    updateMember(ctx, request.params.memberId, request.body),
  );

  // deleteMember ("Deactivate member"): users are never erased; the member is marked archived (isArchived,
  // "deactivated in Sigma"), can no longer open embeds, and their open embed sessions end.
  v2.delete<{ Params: { memberId: string } }>("/members/:memberId", async (request) => {
    await findMember(ctx.db, request.params.memberId);
    await ctx.db.transaction(async (tx) => {
      await tx.query(
        `update analytics.members set is_archived = true, updated_by = null, updated_at = now()
          where member_id = $1`,
        [request.params.memberId],
      );
      await endEmbedSessions(tx, request.params.memberId);
    });
    return {};
  });
}
