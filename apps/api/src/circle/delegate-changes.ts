import type { TDelegate, ZDelegateChangeRequestSchema } from "@portal/contracts";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { auditActor, type Actor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database, Transaction } from "../db/client.ts";
import { delegations } from "../db/schema.ts";
import { queueMemberUpsert } from "../people/member-sync.ts";
import {
  checkShareable,
  clientById,
  delegateNotFound,
  findDelegate,
  storeShared,
  termsOf,
  type Asker,
} from "./delegations.ts";

/** A checked change: `workbookIds` null shares all, `expiresAt` null removes the end date; absent: unchanged. */
export type DelegateChange = z.output<typeof ZDelegateChangeRequestSchema>;

/** The delegation, locked for the rest of the transaction; "Delegate not found." unless it is the client's. */
async function lockDelegation(tx: Transaction, cId: number, id: number) {
  const [row] = await tx
    .select({ id: delegations.id, userId: delegations.userId, acceptedAt: delegations.acceptedAt })
    .from(delegations)
    .where(and(eq(delegations.id, id), eq(delegations.cId, cId)))
    .for("update");
  if (!row) throw delegateNotFound();
  return row;
}

/**
 * The BI service follows what an accepted delegation shares (the delegate's member and its teams, decision
 * 020); before acceptance it shares nothing, so there is nothing to send.
 */
async function queueDelegate(tx: Transaction, delegation: { userId: string; acceptedAt: Date | null }) {
  if (delegation.acceptedAt) await queueMemberUpsert(tx, delegation.userId);
}

/** Changes what a delegation shares and until when, with its audit row (before and after), in one transaction. */
export async function changeDelegate(
  db: Database,
  cId: number,
  id: number,
  change: DelegateChange,
  asker: Asker,
  actor: Actor,
): Promise<TDelegate> {
  return db.transaction(async (tx) => {
    const client = await clientById(tx, cId, true);
    const delegation = await lockDelegation(tx, cId, id);
    const before = await findDelegate(tx, cId, id);
    if (change.workbookIds !== undefined) {
      await checkShareable(tx, client, change.workbookIds, asker);
      await storeShared(tx, id, change.workbookIds);
    }
    if (change.expiresAt !== undefined) {
      // A new end date gets its own reminder a week before it.
      await tx
        .update(delegations)
        .set({ expiresAt: change.expiresAt, reminderSentAt: null })
        .where(eq(delegations.id, id));
    }
    const after = await findDelegate(tx, cId, id);
    await recordAudit(tx, {
      action: "delegate.changed",
      outcome: "success",
      targetType: "client",
      targetId: String(cId),
      before: termsOf(before),
      after: termsOf(after),
      details: { delegationId: id, email: after.email },
      ...auditActor(actor),
    });
    await queueDelegate(tx, delegation);
    return after;
  });
}

/**
 * Removes a delegation: the row is deleted (what it shared goes with it, and its invitation link stops working
 * because its record is gone), audited with what it was, and the delegate's BI member queued without it.
 */
export async function revokeDelegate(
  db: Database,
  cId: number,
  id: number,
  actor: Actor,
): Promise<TDelegate> {
  return db.transaction(async (tx) => {
    const delegation = await lockDelegation(tx, cId, id);
    const before = await findDelegate(tx, cId, id);
    await tx.delete(delegations).where(eq(delegations.id, id));
    await recordAudit(tx, {
      action: "delegate.revoked",
      outcome: "success",
      targetType: "client",
      targetId: String(cId),
      before: { ...termsOf(before), status: before.status },
      details: { delegationId: id, email: before.email, name: before.name },
      ...auditActor(actor),
    });
    await queueDelegate(tx, delegation);
    return before;
  });
}
