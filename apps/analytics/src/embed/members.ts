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

/** The claims that describe an embed user, which Sigma refuses in an internal user's token. */
export const USER_CLAIMS = ["account_type", "teams", "user_attributes", "first_name", "last_name"] as const;

export function hasUserClaims(claims: TEmbedClaims): boolean {
  return USER_CLAIMS.some((c) => claims[c] !== undefined);
}

export async function findMemberByEmail(q: Queryable, email: string): Promise<Member | undefined> {
  const res = await q.query<Member>("select * from analytics.members where lower(email) = lower($1)", [
    email,
  ]);
  return res.rows[0];
}

/**
 * The ids of the teams a `teams` claim names (case-insensitive), or the names no live team has: Sigma
 * needs the teams to exist ("You must create a team and include a `teams` claim"), it never creates them.
 */
export async function teamsByName(
  q: Queryable,
  names: readonly string[],
): Promise<{ teamIds: string[]; missing: string[] }> {
  if (names.length === 0) return { teamIds: [], missing: [] };
  const res = await q.query<{ team_id: string; name: string }>(
    "select team_id, name from analytics.teams where lower(name) = any($1::text[]) and not is_archived",
    [names.map((n) => n.toLowerCase())],
  );
  const found = new Set(res.rows.map((r) => r.name.toLowerCase()));
  return {
    teamIds: res.rows.map((r) => r.team_id),
    missing: [...new Set(names.filter((n) => !found.has(n.toLowerCase())))],
  };
}

/**
 * Creates the embed user on the first visit, or updates them: the claims belong to the user, so names,
 * account type and attributes are taken from the token, and `teams` replaces the user's memberships.
 */
export async function upsertEmbedMember(
  q: Queryable,
  claims: TEmbedClaims,
  teamIds: readonly string[] | undefined,
): Promise<Member> {
  const res = await q.query<Member>(
    `insert into analytics.members (member_id, email, first_name, last_name, member_type, user_kind, user_attributes)
     values ($1, $2, coalesce($3, ''), coalesce($4, ''), $5, 'embed', coalesce($6::jsonb, '{}'::jsonb))
     on conflict ((lower(email))) do update set
       first_name = coalesce($3, analytics.members.first_name),
       last_name = coalesce($4, analytics.members.last_name),
       member_type = $5,
       user_attributes = coalesce($6::jsonb, analytics.members.user_attributes),
       updated_by = null,
       updated_at = now()
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
  const member = res.rows[0] as Member;
  if (teamIds) {
    await q.query(
      `with removed as (
         delete from analytics.team_members where member_id = $1 and not (team_id = any ($2::text[])))
       insert into analytics.team_members (team_id, member_id)
       select unnest($2::text[]), $1
       on conflict do nothing`,
      [member.member_id, [...teamIds]],
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

/** A workbook opens if it is shared with the member, or with one of their (live) teams, at any permission. */
export async function memberCanOpen(db: Queryable, memberId: string, workbookId: string): Promise<boolean> {
  const res = await db.query(
    `select 1 from analytics.workbook_grants g
      where g.workbook_id = $1
        and (g.member_id = $2
          or exists (select 1 from analytics.team_members tm
                       join analytics.teams t on t.team_id = tm.team_id and not t.is_archived
                      where tm.team_id = g.team_id and tm.member_id = $2))
      limit 1`,
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

/** Ends a member's open embed sessions (deactivated): their pages' next data request finds no session. */
export async function endEmbedSessions(db: Queryable, memberId: string): Promise<void> {
  await db.query("delete from analytics.embed_sessions where member_id = $1", [memberId]);
}

export interface SessionContext {
  member: Member;
  workbookId: string;
  urlId: string;
}

/**
 * Resolves a session token: "ended" when unknown, expired or ended (the page shows Sigma's "Session
 * expired"), "gone" when the workbook was archived, "denied" when it is no longer shared with the member.
 */
export async function resolveEmbedSession(
  db: Database,
  token: string,
): Promise<SessionContext | "ended" | "gone" | "denied"> {
  const res = await db.query<Member & { workbook_id: string; url_id: string; workbook_archived: boolean }>(
    `select m.*, s.workbook_id, w.url_id, w.is_archived as workbook_archived
       from analytics.embed_sessions s
       join analytics.members m on m.member_id = s.member_id
       join analytics.workbooks w on w.workbook_id = s.workbook_id
      where s.token_hash = $1 and s.expires_at > now() and not m.is_archived and not m.is_inactive`,
    [hashToken(token)],
  );
  const row = res.rows[0];
  if (!row) return "ended";
  if (row.workbook_archived) return "gone";
  if (!(await memberCanOpen(db, row.member_id, row.workbook_id))) return "denied";
  const { workbook_id, url_id, workbook_archived: _archived, ...member } = row;
  return { member, workbookId: workbook_id, urlId: url_id };
}
