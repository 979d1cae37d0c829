import type { TWorkbook, TWorkbookInput, ZWorkbookListQuerySchema } from "@portal/contracts";
import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { recordAudit } from "../audit/audit.ts";
import type { Database, Executor } from "../db/client.ts";
import { workbooks } from "../db/schema.ts";
import { AppError, notFound } from "../lib/errors.ts";
import { peopleSeeingWorkbook, queueMemberUpserts } from "../people/member-sync.ts";
import { auditActor, type Actor } from "../audit/actor.ts";
import { containsPattern } from "../db/search.ts";
import { rethrowConflict, rows } from "../db/rows.ts";
import { enqueueOutbox } from "../outbox/requests.ts";

type ListQuery = z.output<typeof ZWorkbookListQuerySchema>;

const ORDER: Record<ListQuery["sort"], SQL> = {
  id: sql`w.id asc`,
  "-id": sql`w.id desc`,
  workbook_name: sql`w.workbook_name asc`,
  "-workbook_name": sql`w.workbook_name desc`,
  team_name: sql`w.team_name asc, w.id asc`,
  "-team_name": sql`w.team_name desc, w.id desc`,
};

export async function listWorkbooks(db: Database, query: ListQuery) {
  const filter = query.q
    ? sql`lower(w.workbook_name || ' ' || w.team_name) like ${containsPattern(query.q)}`
    : sql`true`;
  const total = query.q
    ? sql`(select count(*) from workbooks w where ${filter})::int`
    : sql`(select row_count from table_row_counts where table_name = 'workbooks')::int`;
  const result = await db.execute(sql`
    select w.id, w.workbook_name, w.team_name, ${total} as total
    from workbooks w
    where ${filter}
    order by ${ORDER[query.sort]}
    limit ${query.limit} offset ${query.offset}`);
  const list = rows<TWorkbook & { total: number }>(result);
  const count = list[0]?.total ?? (await countWorkbooks(db, filter));
  return { rows: list.map(({ total: _total, ...w }) => w), total: count };
}

async function countWorkbooks(db: Database, filter: SQL): Promise<number> {
  return rows<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from workbooks w where ${filter}`),
  )[0]!.n;
}

function toWorkbook(row: typeof workbooks.$inferSelect): TWorkbook {
  return { id: row.id, workbook_name: row.workbookName, team_name: row.teamName };
}

async function assertNameFree(db: Executor, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: workbooks.id })
    .from(workbooks)
    .where(eq(workbooks.workbookName, name));
  if (clash && clash.id !== exceptId) {
    throw new AppError(409, `A workbook named ${name} already exists.`, "DUPLICATE_WORKBOOK");
  }
}

/**
 * Workbooks may share a team, but only under one spelling: the BI service may treat "Tax Team" and
 * "tax team" as one team, so two spellings would fight over the same members (DEVIATIONS D31).
 */
async function assertTeamSpelling(db: Executor, teamName: string, exceptId?: number) {
  const [other] = await db
    .select({ teamName: workbooks.teamName })
    .from(workbooks)
    .where(
      and(
        sql`lower(${workbooks.teamName}) = lower(${teamName})`,
        ne(workbooks.teamName, teamName),
        exceptId === undefined ? undefined : ne(workbooks.id, exceptId),
      ),
    )
    .limit(1);
  if (other) {
    throw new AppError(
      409,
      `Another workbook uses the team ${other.teamName}. Use exactly that name to share the team, or a different name.`,
      "TEAM_NAME_SPELLING",
    );
  }
}

export async function addWorkbook(db: Database, input: TWorkbookInput, actor: Actor): Promise<TWorkbook> {
  try {
    return await db.transaction(async (tx) => {
      await assertNameFree(tx, input.workbook_name);
      await assertTeamSpelling(tx, input.team_name);
      const [row] = await tx
        .insert(workbooks)
        .values({ workbookName: input.workbook_name, teamName: input.team_name })
        .returning();
      const workbook = toWorkbook(row!);
      // Its team made if missing, and the workbook shared with it in the BI service: an embed user opens
      // a workbook only if it is shared with them.
      await enqueueOutbox(tx, {
        kind: "workbook.share",
        payload: { workbookName: workbook.workbook_name, teamName: workbook.team_name },
      });
      await recordAudit(tx, {
        action: "workbook.created",
        outcome: "success",
        targetType: "workbook",
        targetId: String(workbook.id),
        after: workbook,
        ...auditActor(actor),
      });
      return workbook;
    });
  } catch (error) {
    rethrowConflict(error, `A workbook named ${input.workbook_name} already exists.`);
  }
}

export async function editWorkbook(
  db: Database,
  id: number,
  input: TWorkbookInput,
  actor: Actor,
): Promise<TWorkbook> {
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(workbooks).where(eq(workbooks.id, id)).for("update");
      if (!before) throw notFound("Workbook not found.");
      await assertNameFree(tx, input.workbook_name, id);
      await assertTeamSpelling(tx, input.team_name, id);
      const [row] = await tx
        .update(workbooks)
        .set({ workbookName: input.workbook_name, teamName: input.team_name })
        .where(eq(workbooks.id, id))
        .returning();
      const workbook = toWorkbook(row!);
      if (before.teamName !== workbook.team_name || before.workbookName !== workbook.workbook_name) {
        // The old sharing goes, the new one comes (in this order: both are about the workbook).
        await enqueueOutbox(tx, {
          kind: "workbook.unshare",
          payload: { workbookName: before.workbookName, teamName: before.teamName },
        });
      }
      // Saving shares it again (it may never have been: a catalogue from before a Sigma org was connected).
      await enqueueOutbox(tx, {
        kind: "workbook.share",
        payload: { workbookName: workbook.workbook_name, teamName: workbook.team_name },
      });
      if (before.teamName !== workbook.team_name) {
        // Everyone who sees the workbook moves from the old team to the new one.
        await queueMemberUpserts(tx, await peopleSeeingWorkbook(tx, id), [before.teamName]);
      }
      await recordAudit(tx, {
        action: "workbook.updated",
        outcome: "success",
        targetType: "workbook",
        targetId: String(id),
        before: toWorkbook(before),
        after: workbook,
        ...auditActor(actor),
      });
      return workbook;
    });
  } catch (error) {
    rethrowConflict(error, `A workbook named ${input.workbook_name} already exists.`);
  }
}

export async function deleteWorkbook(db: Database, id: number, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const affected = await peopleSeeingWorkbook(tx, id);
    const [before] = await tx.delete(workbooks).where(eq(workbooks.id, id)).returning();
    if (!before) throw notFound("Workbook not found.");
    await enqueueOutbox(tx, {
      kind: "workbook.unshare",
      payload: { workbookName: before.workbookName, teamName: before.teamName },
    });
    // Those who saw it leave its team (unless another workbook they still see shares the team).
    await queueMemberUpserts(tx, affected, [before.teamName]);
    await recordAudit(tx, {
      action: "workbook.deleted",
      outcome: "success",
      targetType: "workbook",
      targetId: String(id),
      before: toWorkbook(before),
      ...auditActor(actor),
    });
  });
}
