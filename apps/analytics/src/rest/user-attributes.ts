import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { TSigmaUserAttribute } from "@portal/sigma";
import type { Queryable } from "../db/database.ts";
import {
  ApiError,
  DEFAULT_PAGE_SIZE,
  ZPagingQuerySchema,
  auditFields,
  decodePageToken,
  pageAnswer,
  parse,
  whereClause,
  type AuditColumns,
  type RestContext,
} from "./shared.ts";

interface UserAttributeRow extends AuditColumns {
  user_attribute_id: string;
  name: string;
  description: string | null;
  default_value: string | null;
}

function toUserAttribute(r: UserAttributeRow, ctx: RestContext): TSigmaUserAttribute {
  return {
    userAttributeId: r.user_attribute_id,
    name: r.name,
    ...auditFields(r, ctx),
    ...(r.description !== null ? { description: r.description } : {}),
    ...(r.default_value !== null ? { defaultValue: { type: "string" as const, val: r.default_value } } : {}),
  };
}

/** `name` is a search filter: the attributes whose name contains it (case-insensitive). */
const ZListQuerySchema = ZPagingQuerySchema.extend({ name: z.string().max(200).optional() });

/** setUserAttributeForUsers: values for members (by `userId`, their member id). */
const ZSetForUsersSchema = z.object({
  assignments: z
    .array(
      z.object({
        userId: z.string().min(1).max(100),
        value: z.object({ type: z.literal("string"), val: z.string().max(4000) }),
      }),
    )
    .min(1)
    .max(1000),
});

async function findUserAttribute(db: Queryable, id: string): Promise<UserAttributeRow> {
  const res = await db.query<UserAttributeRow>(
    "select * from analytics.user_attributes where user_attribute_id = $1",
    [id],
  );
  if (!res.rows[0]) throw new ApiError(404, "User attribute not found.");
  return res.rows[0];
}

export function registerUserAttributeRoutes(v2: FastifyInstance, ctx: RestContext): void {
  v2.get("/user-attributes", async (request) => {
    const q = parse(ZListQuerySchema, request.query);
    const where = whereClause([q.name !== undefined && ["strpos(lower(name), lower($?)) > 0", q.name]]);
    const limit = q.limit ?? DEFAULT_PAGE_SIZE;
    const offset = decodePageToken(q.page);
    const n = where.params.length;
    const total = await ctx.db.query<{ n: number }>(
      `select count(*)::int as n from analytics.user_attributes ${where.sql}`,
      where.params,
    );
    const rows = await ctx.db.query<UserAttributeRow>(
      `select * from analytics.user_attributes ${where.sql}
        order by name, user_attribute_id limit $${n + 1} offset $${n + 2}`,
      [...where.params, limit, offset],
    );
    return pageAnswer(
      rows.rows.map((r) => toUserAttribute(r, ctx)),
      offset,
      total.rows[0]?.n ?? 0,
    );
  });

  v2.get<{ Params: { userAttributeId: string } }>("/user-attributes/:userAttributeId", async (request) =>
    toUserAttribute(await findUserAttribute(ctx.db, request.params.userAttributeId), ctx),
  );

  // An internal member's own values (an embed user's come from the `user_attributes` claim of each token).
  v2.post<{ Params: { userAttributeId: string } }>(
    "/user-attributes/:userAttributeId/users",
    async (request) => {
      const body = parse(ZSetForUsersSchema, request.body);
      const attribute = await findUserAttribute(ctx.db, request.params.userAttributeId);
      await ctx.db.transaction(async (tx) => {
        for (const a of body.assignments) {
          const res = await tx.query(
            `update analytics.members
                set user_attributes = user_attributes || jsonb_build_object($2::text, $3::text),
                    updated_by = null, updated_at = now()
              where member_id = $1 returning member_id`,
            [a.userId, attribute.name, a.value.val],
          );
          if (res.rows.length === 0) throw new ApiError(404, `There is no member ${a.userId}.`);
        }
      });
      return {};
    },
  );
}
