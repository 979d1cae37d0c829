import { randomBytes, randomUUID } from "node:crypto";
import type { TEmbedClaims } from "@portal/sigma";
import type { Database, Queryable } from "../db/database.ts";
import { EmbedError, hashToken } from "./verify.ts";

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

export async function findTeamIdsByName(
  q: Queryable,
  names: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of names) {
    const found = await q.query<{ team_id: string }>(
      "select team_id from analytics.teams where lower(name) = lower($1)",
      [name],
    );
    let teamId = found.rows[0]?.team_id;
    if (!teamId) {
      // A team named in a token but unknown here is created empty-handed: it grants nothing until a workbook
      // is shared with it.
      const created = await q.query<{ team_id: string }>(
        `insert into analytics.teams (team_id, name) values ($1, $2)
         on conflict ((lower(name))) do update set name = analytics.teams.name returning team_id`,
        [randomUUID(), name],
      );
      teamId = (created.rows[0] as { team_id: string }).team_id;
    }
    out.set(name, teamId);
  }
  return out;
}

/**
 * Creates the embed user on the first visit, or updates them: the claims belong to the user, so names,
 * account type and attributes are taken from the token, and `teams` replaces the user's memberships.
 */
export async function upsertEmbedMember(db: Database, claims: TEmbedClaims): Promise<Member> {
  return db.transaction(async (tx) => {
    const email = claims.sub;
    const existing = await tx.query<Member>(
      "select * from analytics.members where lower(email) = lower($1) for update",
      [email],
    );
    let member = existing.rows[0];
    if (member && (member.is_archived || member.is_inactive)) {
      throw new EmbedError("EPERM", "Your analytics access has been deactivated.", "member deactivated");
    }
    const attributes = claims.user_attributes;
    if (!member) {
      const created = await tx.query<Member>(
        `insert into analytics.members (member_id, email, first_name, last_name, member_type, user_kind, user_attributes)
         values ($1, $2, $3, $4, $5, 'embed', $6::jsonb)
         on conflict ((lower(email))) do update set updated_at = now()
         returning *`,
        [
          randomUUID(),
          email,
          claims.first_name ?? "",
          claims.last_name ?? "",
          claims.account_type ?? DEFAULT_ACCOUNT_TYPE,
          JSON.stringify(attributes ?? {}),
        ],
      );
      member = created.rows[0] as Member;
    } else {
      const updated = await tx.query<Member>(
        `update analytics.members set
           first_name = coalesce($2, first_name),
           last_name = coalesce($3, last_name),
           member_type = $4,
           user_attributes = coalesce($5::jsonb, user_attributes),
           updated_at = now()
         where member_id = $1 returning *`,
        [
          member.member_id,
          claims.first_name ?? null,
          claims.last_name ?? null,
          claims.account_type ?? DEFAULT_ACCOUNT_TYPE,
          attributes ? JSON.stringify(attributes) : null,
        ],
      );
      member = updated.rows[0] as Member;
    }
    if (claims.teams) {
      const teamIds = await findTeamIdsByName(tx, claims.teams);
      await tx.query(
        "delete from analytics.team_members where member_id = $1 and not (team_id = any($2::text[]))",
        [member.member_id, [...teamIds.values()]],
      );
      for (const teamId of teamIds.values()) {
        await tx.query(
          `insert into analytics.team_members (team_id, member_id) values ($1, $2) on conflict do nothing`,
          [teamId, member.member_id],
        );
      }
    }
    return member;
  });
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
  db: Database,
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
