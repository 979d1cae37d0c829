import type { TDelegate, TDelegateStatus } from "@portal/contracts";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Executor, Transaction } from "../db/client.ts";
import { clients, clientWorkbooks, delegations, delegationWorkbooks } from "../db/schema.ts";
import { AppError, notFound } from "../lib/errors.ts";

/**
 * A client's delegates (issue 23, decision 020): the people a client invited to view their workbooks, each
 * with their own sign-in. This module reads them and checks what may be shared; inviting is
 * `delegate-invites.ts`, changing and removing `delegate-changes.ts`, the link's side `delegation-record.ts`.
 * A delegation id is only ever looked up within one client's, so another client's is "not found".
 */

/** The client whose delegates these are. */
export interface DelegationOwner {
  cId: number;
  userId: string;
  email: string;
  /** "Olivia Bennett". */
  name: string;
}

/**
 * Who is asking: the client about their own delegates ("your workbooks"), or an admin for a client (their
 * name). Only the words of the answers differ.
 */
export type Asker = "client" | "admin";

export const delegateNotFound = () => notFound("Delegate not found.");

/** The signed-in person's client record; undefined for anyone who is not a client. */
export async function clientOfUser(db: Executor, userId: string): Promise<DelegationOwner | undefined> {
  return owner(db, eq(clients.userId, userId));
}

/** The client with this `c_id`, locked for the caller's transaction when asked; the admin's 404 otherwise. */
export async function clientById(db: Executor, cId: number, lock = false): Promise<DelegationOwner> {
  const found = await owner(db, eq(clients.cId, cId), lock);
  if (!found) throw notFound("Client not found.");
  return found;
}

async function owner(db: Executor, where: SQL, lock = false): Promise<DelegationOwner | undefined> {
  const query = db
    .select({
      cId: clients.cId,
      userId: clients.userId,
      email: clients.email,
      firstName: clients.firstName,
      lastName: clients.lastName,
    })
    .from(clients)
    .where(where);
  const [row] = lock ? await query.for("update") : await query;
  return (
    row && { cId: row.cId, userId: row.userId, email: row.email, name: `${row.firstName} ${row.lastName}` }
  );
}

/** Status by the database's clock: an end date that has passed wins over everything else. */
const status = sql<TDelegateStatus>`case when ${delegations.expiresAt} <= now() then 'expired'
  when ${delegations.acceptedAt} is null then 'invited' else 'active' end`;

/**
 * The chosen workbooks that are still the client's (decision 020: a delegate sees a workbook only while it is
 * both shared and assigned to the client); empty when all are shared.
 */
// Qualified by hand: Drizzle writes a one-table query's columns unqualified, which inside this subquery would
// name the subquery's own tables.
const sharedIds = sql<number[]>`case when "delegations"."all_workbooks" then '{}'::int[] else coalesce((
  select array_agg(dw.workbook_id order by dw.workbook_id)
    from delegation_workbooks dw
    join client_workbooks cw on cw.workbook_id = dw.workbook_id and cw.c_id = "delegations"."c_id"
   where dw.delegation_id = "delegations"."id"), '{}'::int[]) end`;

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** The client's delegates, oldest invitation first; `id` narrows to one. */
export async function listDelegates(db: Executor, cId: number, id?: number): Promise<TDelegate[]> {
  const found = await db
    .select({
      id: delegations.id,
      name: delegations.name,
      email: delegations.email,
      status,
      allWorkbooks: delegations.allWorkbooks,
      workbookIds: sharedIds,
      expiresAt: delegations.expiresAt,
      createdAt: delegations.createdAt,
      acceptedAt: delegations.acceptedAt,
      lastViewedAt: delegations.lastViewedAt,
    })
    .from(delegations)
    .where(
      id === undefined ? eq(delegations.cId, cId) : and(eq(delegations.cId, cId), eq(delegations.id, id)),
    )
    .orderBy(asc(delegations.createdAt), asc(delegations.id));
  return found.map((d) => ({
    id: d.id,
    name: d.name,
    email: d.email,
    status: d.status,
    all_workbooks: d.allWorkbooks,
    workbook_ids: (d.workbookIds ?? []).map(Number),
    expires_at: iso(d.expiresAt),
    invited_at: d.createdAt.toISOString(),
    accepted_at: iso(d.acceptedAt),
    last_viewed_at: iso(d.lastViewedAt),
  }));
}

/** One of the client's delegates, or "Delegate not found." (also for another client's). */
export async function findDelegate(db: Executor, cId: number, id: number): Promise<TDelegate> {
  const [delegate] = await listDelegates(db, cId, id);
  if (!delegate) throw delegateNotFound();
  return delegate;
}

/**
 * Workbooks may be shared only from the client's own: any other id (unknown, or not assigned to them) is a
 * 400 naming it, before anything is written. `null` shares all of them.
 */
export async function checkShareable(
  tx: Executor,
  client: DelegationOwner,
  ids: number[] | null,
  asker: Asker,
): Promise<void> {
  if (ids === null) return;
  const assigned = await tx
    .select({ id: clientWorkbooks.workbookId })
    .from(clientWorkbooks)
    .where(and(eq(clientWorkbooks.cId, client.cId), inArray(clientWorkbooks.workbookId, ids)));
  const missing = ids.filter((id) => !assigned.some((a) => a.id === id));
  if (missing.length === 0) return;
  const which = `Workbook${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`;
  const verb = missing.length > 1 ? "are" : "is";
  throw new AppError(
    400,
    asker === "client"
      ? `${which} ${verb} not among your workbooks, so ${missing.length > 1 ? "they" : "it"} cannot be shared.`
      : `${which} ${verb} not assigned to ${client.name}, so ${missing.length > 1 ? "they" : "it"} cannot be shared.`,
    "UNKNOWN_WORKBOOK",
  );
}

/** Stores what a delegation shares: all the client's workbooks (`null`), or exactly these. */
export async function storeShared(
  tx: Transaction,
  delegationId: number,
  ids: number[] | null,
): Promise<void> {
  await tx.delete(delegationWorkbooks).where(eq(delegationWorkbooks.delegationId, delegationId));
  if (ids !== null && ids.length > 0) {
    await tx.insert(delegationWorkbooks).values(ids.map((workbookId) => ({ delegationId, workbookId })));
  }
  await tx
    .update(delegations)
    .set({ allWorkbooks: ids === null })
    .where(eq(delegations.id, delegationId));
}

/** What the audit rows keep of a delegation's terms. */
export function termsOf(delegate: Pick<TDelegate, "all_workbooks" | "workbook_ids" | "expires_at">) {
  return {
    workbookIds: delegate.all_workbooks ? ("all" as const) : delegate.workbook_ids,
    expiresAt: delegate.expires_at,
  };
}
