import type { THousehold, ZHouseholdInputSchema } from "@portal/contracts";
import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { auditActor, type Actor } from "../audit/actor.ts";
import { recordAudit, type AuditAction } from "../audit/audit.ts";
import type { Database, Executor } from "../db/client.ts";
import { pgCode, rows } from "../db/rows.ts";
import { AppError, notFound } from "../lib/errors.ts";

/** A checked body: a trimmed name, distinct client ids in ascending order. */
export type HouseholdInput = z.output<typeof ZHouseholdInputSchema>;

/** What the audit row keeps of a household, before and after a change. */
interface HouseholdState {
  name: string;
  combinedView: boolean;
  /** The members' `c_id`s, ascending. */
  members: number[];
}

const householdNotFound = () => notFound("Household not found.");

/**
 * Households with their members, in one query. Members are listed by name; households by name, then id (two
 * households may share a name: a name is a label for admins, not an identity, and two families called
 * Bennett are two households).
 */
async function selectHouseholds(db: Executor, where: SQL): Promise<THousehold[]> {
  return rows<THousehold>(
    await db.execute(sql`
      select h.id, h.name, h.combined_view as "combinedView",
             coalesce((select json_agg(json_build_object('c_id', c.c_id, 'client_id', c.client_id,
                                                         'name', c.first_name || ' ' || c.last_name)
                                       order by c.first_name, c.last_name, c.c_id)
                         from household_members m join clients c on c.c_id = m.c_id
                        where m.household_id = h.id), '[]'::json) as members
        from households h
       where ${where}
       order by lower(h.name), h.id`),
  );
}

export const listHouseholds = (db: Executor) => selectHouseholds(db, sql`true`);

async function findHousehold(db: Executor, id: number): Promise<THousehold> {
  const [household] = await selectHouseholds(db, sql`h.id = ${id}`);
  if (!household) throw householdNotFound();
  return household;
}

/** The household a client belongs to (null: none); an unknown client is a 404 in the people module's words. */
export async function householdOfClient(db: Executor, cId: number): Promise<THousehold | null> {
  const [client] = rows<{ household_id: number | null }>(
    await db.execute(sql`
      select (select m.household_id from household_members m where m.c_id = c.c_id) as household_id
        from clients c where c.c_id = ${cId}`),
  );
  if (!client) throw notFound("Client not found.");
  if (client.household_id === null) return null;
  const [household] = await selectHouseholds(db, sql`h.id = ${client.household_id}`);
  return household ?? null;
}

const stateOf = (household: THousehold): HouseholdState => ({
  name: household.name,
  combinedView: household.combinedView,
  members: household.members.map((m) => m.c_id).sort((a, b) => a - b),
});

/**
 * Every id must be a client. Their rows are held (key share) until the transaction ends, so a client deleted
 * meanwhile cannot leave a member row pointing nowhere: the delete waits, then removes the membership with it.
 */
async function assertClientsExist(tx: Executor, ids: number[]) {
  const found = rows<{ c_id: number }>(
    await tx.execute(sql`
      select c_id from clients where c_id = any(${sql.param(ids)}::int[]) order by c_id for key share`),
  ).map((row) => row.c_id);
  const missing = ids.filter((id) => !found.includes(id));
  if (missing.length > 0) {
    throw new AppError(
      400,
      `Unknown client id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}. Nothing was saved.`,
      "UNKNOWN_CLIENT",
    );
  }
}

/** The 409 naming each client who is in another household, and that household; undefined when none is. */
async function membershipConflict(db: Executor, ids: number[], householdId?: number) {
  const taken = rows<{ name: string; client_id: string; household: string }>(
    await db.execute(sql`
      select c.first_name || ' ' || c.last_name as name, c.client_id, h.name as household
        from household_members m
        join clients c on c.c_id = m.c_id
        join households h on h.id = m.household_id
       where m.c_id = any(${sql.param(ids)}::int[]) and m.household_id <> ${householdId ?? 0}
       order by c.c_id`),
  );
  if (taken.length === 0) return undefined;
  const named = taken.map((t) => `${t.name} (${t.client_id}) is already in the household “${t.household}”`);
  return new AppError(
    409,
    `${named.join("; ")}. A client can be in one household only: remove them there first.`,
    "CONFLICT",
  );
}

/**
 * Another admin's change that committed between the checks and the insert: the unique index on a client's
 * membership refuses the second (23505), named as the check would have named it. A deadlock between two such
 * changes (40P01) is the same conflict. Anything else is rethrown.
 */
async function rethrowRace(
  db: Database,
  error: unknown,
  ids: number[],
  householdId?: number,
): Promise<never> {
  const code = pgCode(error);
  if (code !== "23505" && code !== "40P01") throw error;
  throw (
    (await membershipConflict(db, ids, householdId)) ??
    new AppError(
      409,
      "Another admin changed these clients' households at the same time. Try again.",
      "CONFLICT",
    )
  );
}

/** The household as it is, its row locked to the end of the transaction: two admins' changes apply in turn. */
async function lockHousehold(tx: Executor, id: number): Promise<THousehold> {
  const [locked] = rows<{ id: number }>(
    await tx.execute(sql`select id from households where id = ${id} for update`),
  );
  if (!locked) throw householdNotFound();
  return findHousehold(tx, id);
}

async function auditHousehold(
  tx: Executor,
  action: Extract<AuditAction, `household.${string}`>,
  actor: Actor,
  id: number,
  change: { before?: THousehold; after?: THousehold },
) {
  await recordAudit(tx, {
    action,
    outcome: "success",
    targetType: "household",
    targetId: String(id),
    ...(change.before && { before: stateOf(change.before) }),
    ...(change.after && { after: stateOf(change.after) }),
    ...auditActor(actor),
  });
}

async function insertMembers(tx: Executor, householdId: number, ids: number[]) {
  const values = sql.join(
    ids.map((cId) => sql`(${householdId}, ${cId})`),
    sql`, `,
  );
  // Ascending c_id (the contract sorts them), so two changes insert in one order and never wait on each other.
  await tx.execute(sql`insert into household_members (household_id, c_id) values ${values}`);
}

/** A new household; every client must exist and be in no other household (else nothing is written). */
export async function createHousehold(
  db: Database,
  input: HouseholdInput,
  actor: Actor,
): Promise<THousehold> {
  try {
    return await db.transaction(async (tx) => {
      await assertClientsExist(tx, input.clientIds);
      const conflict = await membershipConflict(tx, input.clientIds);
      if (conflict) throw conflict;
      const [created] = rows<{ id: number }>(
        await tx.execute(sql`
          insert into households (name, combined_view) values (${input.name}, ${input.combinedView})
          returning id`),
      );
      await insertMembers(tx, created!.id, input.clientIds);
      const household = await findHousehold(tx, created!.id);
      await auditHousehold(tx, "household.created", actor, household.id, { after: household });
      return household;
    });
  } catch (error) {
    return rethrowRace(db, error, input.clientIds);
  }
}

/** Replaces the name, the members and the combined view together. */
export async function replaceHousehold(
  db: Database,
  id: number,
  input: HouseholdInput,
  actor: Actor,
): Promise<THousehold> {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockHousehold(tx, id);
      await assertClientsExist(tx, input.clientIds);
      const conflict = await membershipConflict(tx, input.clientIds, id);
      if (conflict) throw conflict;
      await tx.execute(sql`
        update households set name = ${input.name}, combined_view = ${input.combinedView}, updated_at = now()
         where id = ${id}`);
      await tx.execute(sql`delete from household_members where household_id = ${id}`);
      await insertMembers(tx, id, input.clientIds);
      const after = await findHousehold(tx, id);
      await auditHousehold(tx, "household.changed", actor, id, { before, after });
      return after;
    });
  } catch (error) {
    return rethrowRace(db, error, input.clientIds, id);
  }
}

/** Deletes the household; its clients stay, each in no household. */
export async function deleteHousehold(db: Database, id: number, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockHousehold(tx, id);
    await tx.execute(sql`delete from households where id = ${id}`);
    await auditHousehold(tx, "household.deleted", actor, id, { before });
  });
}
