import { randomBytes, randomUUID } from "node:crypto";
import type { TEmbedClaims } from "@portal/sigma";
import type { Database, Queryable } from "../db/database.ts";
import { hashToken } from "./verify.ts";

/** Sigma assigns the highest account type when `account_type` is omitted. */
export const DEFAULT_ACCOUNT_TYPE = "Build";

export interface Member {
  member_id: string;
  email: string;
  first_name: string;
  last_name: string;
  member_type: string;
  user_kind: string;
  user_attributes: Record<string, string>;
  is_archived: boolean;
  is_inactive: boolean;
}

/** Team ids for these names, creating the missing teams (empty-handed: they grant nothing until shared). */
export async function ensureTeamsByName(q: Queryable, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const res = await q.query<{ team_id: string }>(
    `with names as (select distinct on (lower(n)) n from unnest($1::text[]) as n),
          created as (
            insert into analytics.teams (team_id, name)
            select gen_random_uuid()::text, n from names
            on conflict ((lower(name))) do nothing
            returning team_id)
     select team_id from created
     union
     select t.team_id from analytics.teams t join names on lower(t.name) = lower(names.n)`,
    [[...names]],
  );
  return res.rows.map((r) => r.team_id);
}

/**
 * Creates the embed user on the first visit, or updates them: the claims belong to the user, so names,
 * account type and attributes are taken from the token, and `teams` replaces the user's memberships.
 * Returns "deactivated" (and changes nothing) for an archived or deactivated member.
 */
export async function upsertEmbedMember(q: Queryable, claims: TEmbedClaims): Promise<Member | "deactivated"> {
  const res = await q.query<Member>(
    `insert into analytics.members (member_id, email, first_name, last_name, member_type, user_kind, user_attributes)
     values ($1, $2, coalesce($3, ''), coalesce($4, ''), $5, 'embed', coalesce($6::jsonb, '{}'::jsonb))
     on conflict ((lower(email))) do update set
       first_name = coalesce($3, analytics.members.first_name),
       last_name = coalesce($4, analytics.members.last_name),
       member_type = $5,
       user_attributes = coalesce($6::jsonb, analytics.members.user_attributes),
       updated_at = now()
     where not analytics.members.is_archived and not analytics.members.is_inactive
     returning *`,
    [
      randomUUID(),
      claims.sub,
      claims.first_name ?? null,
      claims.last_name ?? null,
      claims.account_type ?? DEFAULT_ACCOUNT_TYPE,
      claims.user_attributes ? JSON.stringify(claims.user_attributes) : null,
    ],
  );
  const member = res.rows[0];
  if (!member) return "deactivated";
  if (claims.teams) {
    const teamIds = await ensureTeamsByName(q, claims.teams);
    await q.query(
      `with removed as (
         delete from analytics.team_members where member_id = $1 and not (team_id = any ($2::text[])))
       insert into analytics.team_members (team_id, member_id)
       select unnest($2::text[]), $1
       on conflict do nothing`,
      [member.member_id, teamIds],
    );
  }
  return member;
}

export interface CatalogWorkbook {
  workbook_id: string;
  url_id: string;
  name: string;
  is_archived: boolean;
}

export async function findWorkbookByUrlId(
  db: Queryable,
  urlId: string,
): Promise<CatalogWorkbook | undefined> {
  const res = await db.query<CatalogWorkbook>(
    "select workbook_id, url_id, name, is_archived from analytics.workbooks where url_id = $1",
    [urlId],
  );
  return res.rows[0];
}

/** A workbook opens only if one of the member's teams has access to it. */
export async function memberCanOpen(db: Queryable, memberId: string, workbookId: string): Promise<boolean> {
  const res = await db.query(
    `select 1 from analytics.workbook_grants g
       join analytics.team_members tm on tm.team_id = g.team_id
       join analytics.teams t on t.team_id = g.team_id and not t.is_archived
     where g.workbook_id = $1 and tm.member_id = $2 limit 1`,
    [workbookId, memberId],
  );
  return res.rows.length > 0;
}

/** An embed session: the page's bearer token for its data requests, valid until the JWT's `exp`. */
export async function createEmbedSession(
  db: Queryable,
  memberId: string,
  workbookId: string,
  expiresAtSeconds: number,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.query(
    `insert into analytics.embed_sessions (token_hash, member_id, workbook_id, expires_at)
     values ($1, $2, $3, to_timestamp($4))`,
    [hashToken(token), memberId, workbookId, expiresAtSeconds],
  );
  return token;
}

export interface SessionContext {
  member: Member;
  workbookId: string;
  urlId: string;
}

/** Resolves a session token; undefined when unknown, expired, deactivated or no longer shared. */
export async function resolveEmbedSession(db: Database, token: string): Promise<SessionContext | undefined> {
  const res = await db.query<Member & { workbook_id: string; url_id: string }>(
    `select m.*, s.workbook_id, w.url_id
       from analytics.embed_sessions s
       join analytics.members m on m.member_id = s.member_id
       join analytics.workbooks w on w.workbook_id = s.workbook_id
      where s.token_hash = $1 and s.expires_at > now() and not m.is_archived and not m.is_inactive
        and not w.is_archived`,
    [hashToken(token)],
  );
  const row = res.rows[0];
  if (!row) return undefined;
  if (!(await memberCanOpen(db, row.member_id, row.workbook_id))) return undefined;
  const { workbook_id, url_id, ...member } = row;
  return { member, workbookId: workbook_id, urlId: url_id };
}
