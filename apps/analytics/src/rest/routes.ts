import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  ZSigmaCreateMemberSchema,
  ZSigmaCreateTeamSchema,
  ZSigmaUpdateMemberSchema,
  ZSigmaUpdateTeamMembersSchema,
  type TSigmaMember,
  type TSigmaTeam,
  type TSigmaWorkbook,
} from "@portal/sigma";
import type { AnalyticsConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { hashToken } from "../embed/verify.ts";
import { slugOf } from "../workbooks/catalog.ts";

/** The Sigma REST API subset the portal needs: token, members, teams, team members, workbooks. */

export const API_TOKEN_SECONDS = 3600;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function sendError(reply: FastifyReply, request: FastifyRequest, error: ApiError) {
  return reply.code(error.status).send({ requestId: request.id, message: error.message, code: error.code });
}

const ZPagingSchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  page: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/)
    .optional(),
});

function decodePage(page: string | undefined): number {
  if (!page) return 0;
  const offset = Number(Buffer.from(page, "base64url").toString("utf8"));
  if (!Number.isInteger(offset) || offset < 0) throw new ApiError(400, "bad_request", "Invalid page token.");
  return offset;
}

function pageResult<T>(entries: T[], total: number, offset: number) {
  const next = offset + entries.length;
  return {
    entries,
    hasMore: next < total,
    total,
    nextPage: next < total ? Buffer.from(String(next)).toString("base64url") : null,
  };
}

interface MemberRow {
  member_id: string;
  email: string;
  first_name: string;
  last_name: string;
  member_type: string;
  user_kind: string;
  is_archived: boolean;
  is_inactive: boolean;
  created_at: Date;
  updated_at: Date;
}

function toMember(r: MemberRow, orgId: string): TSigmaMember {
  return {
    organizationId: orgId,
    memberId: r.member_id,
    memberType: r.member_type,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    userKind: r.user_kind,
    isArchived: r.is_archived,
    isInactive: r.is_inactive,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

interface TeamRow {
  team_id: string;
  name: string;
  description: string | null;
  is_archived: boolean;
  created_at: Date;
  updated_at: Date;
}

function toTeam(r: TeamRow): TSigmaTeam {
  return {
    teamId: r.team_id,
    name: r.name,
    description: r.description,
    isArchived: r.is_archived,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const res = schema.safeParse(value);
  if (!res.success) {
    throw new ApiError(
      400,
      "bad_request",
      res.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "),
    );
  }
  return res.data;
}

function secretMatches(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

export function registerRestRoutes(
  app: FastifyInstance,
  deps: { config: AnalyticsConfig; db: Database },
): void {
  const { config, db } = deps;
  const orgId = createHash("sha256").update(`org:${config.orgSlug}`).digest("hex").slice(0, 32);

  app.register(
    async (v2) => {
      v2.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "string" },
        (_req, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        },
      );

      v2.setErrorHandler((error, request, reply) => {
        if (error instanceof ApiError) return sendError(reply, request, error);
        const status = (error as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500) {
          return sendError(
            reply,
            request,
            new ApiError(status, "bad_request", "The request could not be read."),
          );
        }
        request.log.error({ err: error }, "REST API error");
        return sendError(reply, request, new ApiError(500, "internal_error", "Internal error."));
      });
      v2.setNotFoundHandler((request, reply) =>
        sendError(reply, request, new ApiError(404, "not_found", "Not found.")),
      );

      v2.addHook("onRequest", async (request) => {
        if (request.url.startsWith("/v2/auth/token")) return;
        const token = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(request.headers.authorization ?? "")?.[1];
        const valid =
          token &&
          (
            await db.query(
              "select 1 from analytics.api_tokens where token_hash = $1 and expires_at > now()",
              [hashToken(token)],
            )
          ).rows.length > 0;
        if (!valid) throw new ApiError(401, "unauthorized", "A valid bearer token is required.");
      });

      v2.post("/auth/token", async (request) => {
        const body = parse(
          z.object({
            grant_type: z.literal("client_credentials"),
            client_id: z.string().min(1),
            client_secret: z.string().min(1),
          }),
          request.body,
        );
        const client = config.apiClients.find(
          (c) => secretMatches(c.clientId, body.client_id) && secretMatches(c.secret, body.client_secret),
        );
        if (!client) throw new ApiError(401, "unauthorized", "Invalid client credentials.");
        const accessToken = randomBytes(32).toString("base64url");
        await db.query(
          "insert into analytics.api_tokens (token_hash, client_id, expires_at) values ($1, $2, now() + make_interval(secs => $3))",
          [hashToken(accessToken), client.clientId, API_TOKEN_SECONDS],
        );
        await db.query("delete from analytics.api_tokens where expires_at < now() - interval '1 day'");
        return {
          access_token: accessToken,
          refresh_token: randomBytes(32).toString("base64url"),
          token_type: "bearer",
          expires_in: API_TOKEN_SECONDS,
        };
      });

      // Members
      const getMember = async (memberId: string) => {
        const res = await db.query<MemberRow>("select * from analytics.members where member_id = $1", [
          memberId,
        ]);
        if (!res.rows[0]) throw new ApiError(404, "not_found", "Member not found.");
        return res.rows[0];
      };

      v2.get("/members", async (request) => {
        const q = parse(ZPagingSchema.extend({ email: z.string().max(254).optional() }), request.query);
        const offset = decodePage(q.page);
        const where = q.email ? "where lower(email) = lower($1)" : "where $1::text is null";
        const total = await db.query<{ n: number }>(
          `select count(*)::int as n from analytics.members ${where}`,
          [q.email ?? null],
        );
        const rows = await db.query<MemberRow>(
          `select * from analytics.members ${where} order by created_at, member_id limit $2 offset $3`,
          [q.email ?? null, q.limit, offset],
        );
        return pageResult(
          rows.rows.map((r) => toMember(r, orgId)),
          total.rows[0]?.n ?? 0,
          offset,
        );
      });

      v2.post("/members", async (request, reply) => {
        const body = parse(ZSigmaCreateMemberSchema, request.body);
        const member = await db
          .transaction(async (tx) => {
            const exists = await tx.query("select 1 from analytics.members where lower(email) = lower($1)", [
              body.email,
            ]);
            if (exists.rows.length)
              throw new ApiError(409, "conflict", "A member with this email already exists.");
            const created = await tx.query<MemberRow>(
              `insert into analytics.members (member_id, email, first_name, last_name, member_type, user_kind)
           values ($1, $2, $3, $4, $5, $6) returning *`,
              [randomUUID(), body.email, body.firstName, body.lastName, body.memberType, body.userKind],
            );
            const row = created.rows[0] as MemberRow;
            for (const t of body.addToTeams) {
              const team = await tx.query("select 1 from analytics.teams where team_id = $1", [t.teamId]);
              if (!team.rows.length) throw new ApiError(400, "bad_request", `Unknown team ${t.teamId}.`);
              await tx.query(
                "insert into analytics.team_members (team_id, member_id, is_team_admin) values ($1, $2, $3) on conflict do nothing",
                [t.teamId, row.member_id, t.isTeamAdmin],
              );
            }
            return row;
          })
          .catch((error: unknown) => {
            // Two concurrent creations: the unique index decides.
            if ((error as { code?: string }).code === "23505")
              throw new ApiError(409, "conflict", "A member with this email already exists.");
            throw error;
          });
        return reply.code(200).send(toMember(member, orgId));
      });

      v2.get<{ Params: { memberId: string } }>("/members/:memberId", async (request) =>
        toMember(await getMember(request.params.memberId), orgId),
      );

      v2.patch<{ Params: { memberId: string } }>("/members/:memberId", async (request) => {
        const body = parse(ZSigmaUpdateMemberSchema, request.body);
        await getMember(request.params.memberId);
        try {
          const res = await db.query<MemberRow>(
            `update analytics.members set
             member_type = coalesce($2, member_type),
             first_name = coalesce($3, first_name),
             last_name = coalesce($4, last_name),
             email = coalesce($5, email),
             is_archived = coalesce($6, is_archived),
             -- isArchived: false reactivates a member that DELETE deactivated (Sigma: PATCH /v2/members/{id}).
             is_inactive = case when $6 = false then false else is_inactive end,
             updated_at = now()
           where member_id = $1 returning *`,
            [
              request.params.memberId,
              body.memberType ?? null,
              body.firstName ?? null,
              body.lastName ?? null,
              body.email ?? null,
              body.isArchived ?? null,
            ],
          );
          if (body.isArchived) {
            await db.query("delete from analytics.embed_sessions where member_id = $1", [
              request.params.memberId,
            ]);
          }
          return toMember(res.rows[0] as MemberRow, orgId);
        } catch (error) {
          if ((error as { code?: string }).code === "23505")
            throw new ApiError(409, "conflict", "A member with this email already exists.");
          throw error;
        }
      });

      // Sigma deactivates rather than erases: the member stays, cannot embed, and their sessions end.
      v2.delete<{ Params: { memberId: string } }>("/members/:memberId", async (request) => {
        await getMember(request.params.memberId);
        await db.query(
          "update analytics.members set is_inactive = true, updated_at = now() where member_id = $1",
          [request.params.memberId],
        );
        await db.query("delete from analytics.embed_sessions where member_id = $1", [
          request.params.memberId,
        ]);
        return {};
      });

      // Teams
      v2.get("/teams", async (request) => {
        const q = parse(ZPagingSchema.extend({ name: z.string().max(200).optional() }), request.query);
        const offset = decodePage(q.page);
        const where = q.name ? "where lower(name) = lower($1)" : "where $1::text is null";
        const total = await db.query<{ n: number }>(
          `select count(*)::int as n from analytics.teams ${where}`,
          [q.name ?? null],
        );
        const rows = await db.query<TeamRow>(
          `select * from analytics.teams ${where} order by created_at, team_id limit $2 offset $3`,
          [q.name ?? null, q.limit, offset],
        );
        return pageResult(rows.rows.map(toTeam), total.rows[0]?.n ?? 0, offset);
      });

      v2.post("/teams", async (request) => {
        const body = parse(ZSigmaCreateTeamSchema, request.body);
        return db.transaction(async (tx) => {
          const exists = await tx.query("select 1 from analytics.teams where lower(name) = lower($1)", [
            body.name,
          ]);
          if (exists.rows.length)
            throw new ApiError(409, "conflict", "A team with this name already exists.");
          const created = await tx.query<TeamRow>(
            "insert into analytics.teams (team_id, name, description) values ($1, $2, $3) returning *",
            [randomUUID(), body.name, body.description ?? null],
          );
          const team = created.rows[0] as TeamRow;
          for (const memberId of body.members ?? []) {
            const m = await tx.query("select 1 from analytics.members where member_id = $1", [memberId]);
            if (!m.rows.length) throw new ApiError(400, "bad_request", `Unknown member ${memberId}.`);
            await tx.query(
              "insert into analytics.team_members (team_id, member_id) values ($1, $2) on conflict do nothing",
              [team.team_id, memberId],
            );
          }
          return toTeam(team);
        });
      });

      const getTeam = async (teamId: string) => {
        const res = await db.query<TeamRow>("select * from analytics.teams where team_id = $1", [teamId]);
        if (!res.rows[0]) throw new ApiError(404, "not_found", "Team not found.");
        return res.rows[0];
      };

      v2.get<{ Params: { teamId: string } }>("/teams/:teamId/members", async (request) => {
        const q = parse(ZPagingSchema, request.query);
        await getTeam(request.params.teamId);
        const offset = decodePage(q.page);
        const total = await db.query<{ n: number }>(
          "select count(*)::int as n from analytics.team_members where team_id = $1",
          [request.params.teamId],
        );
        const rows = await db.query<{
          member_id: string;
          team_id: string;
          is_team_admin: boolean;
          email: string;
        }>(
          `select tm.member_id, tm.team_id, tm.is_team_admin, m.email
           from analytics.team_members tm join analytics.members m using (member_id)
          where tm.team_id = $1 order by m.created_at, m.member_id limit $2 offset $3`,
          [request.params.teamId, q.limit, offset],
        );
        return pageResult(
          rows.rows.map((r) => ({
            memberId: r.member_id,
            teamId: r.team_id,
            isTeamAdmin: r.is_team_admin,
            email: r.email,
          })),
          total.rows[0]?.n ?? 0,
          offset,
        );
      });

      v2.patch<{ Params: { teamId: string } }>("/teams/:teamId/members", async (request) => {
        const body = parse(ZSigmaUpdateTeamMembersSchema, request.body);
        await getTeam(request.params.teamId);
        await db.transaction(async (tx) => {
          for (const memberId of body.add ?? []) {
            const m = await tx.query("select 1 from analytics.members where member_id = $1", [memberId]);
            if (!m.rows.length) throw new ApiError(400, "bad_request", `Unknown member ${memberId}.`);
            await tx.query(
              "insert into analytics.team_members (team_id, member_id) values ($1, $2) on conflict do nothing",
              [request.params.teamId, memberId],
            );
          }
          if (body.remove?.length) {
            await tx.query(
              "delete from analytics.team_members where team_id = $1 and member_id = any($2::text[])",
              [request.params.teamId, body.remove],
            );
          }
        });
        return {};
      });

      // Workbooks, with `url` in Sigma's form.
      v2.get("/workbooks", async (request) => {
        const q = parse(ZPagingSchema, request.query);
        const offset = decodePage(q.page);
        const total = await db.query<{ n: number }>(
          "select count(*)::int as n from analytics.workbooks where not is_archived",
        );
        const rows = await db.query<{
          workbook_id: string;
          url_id: string;
          name: string;
          path: string;
          latest_version: number;
          is_archived: boolean;
          created_at: Date;
          updated_at: Date;
        }>(
          "select * from analytics.workbooks where not is_archived order by name, workbook_id limit $1 offset $2",
          [q.limit, offset],
        );
        const entries: TSigmaWorkbook[] = rows.rows.map((r) => ({
          workbookId: r.workbook_id,
          workbookUrlId: r.url_id,
          name: r.name,
          url: `${config.publicUrl}/${config.orgSlug}/workbook/${slugOf(r.name)}-${r.url_id}`,
          path: r.path,
          latestVersion: r.latest_version,
          isArchived: r.is_archived,
          createdAt: new Date(r.created_at).toISOString(),
          updatedAt: new Date(r.updated_at).toISOString(),
        }));
        return pageResult(entries, total.rows[0]?.n ?? 0, offset);
      });
    },
    { prefix: "/v2" },
  );
}
