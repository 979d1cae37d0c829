import { and, eq } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import { resetTwoFactor } from "../auth/two-factor.ts";
import type { Database, Executor } from "../db/client.ts";
import { clients, employees, provisioningRequests } from "../db/schema.ts";
import { notFound } from "../lib/errors.ts";
import { memberUpsertPayload } from "./people.ts";
import { auditActor, type Actor } from "./shared.ts";

/** A client or an employee, by the id the admin pages use. */
export type PersonTarget = { type: "client"; cId: number } | { type: "employee"; eId: number };

/** The person's sign-in account; 404 in the admin's words when there is no such client or employee. */
async function signInAccountOf(db: Executor, target: PersonTarget): Promise<string> {
  const [row] =
    target.type === "client"
      ? await db.select({ userId: clients.userId }).from(clients).where(eq(clients.cId, target.cId))
      : await db.select({ userId: employees.userId }).from(employees).where(eq(employees.eId, target.eId));
  if (!row) throw notFound(target.type === "client" ? "Client not found." : "Employee not found.");
  return row.userId;
}

/**
 * Puts a client's or employee's failed BI changes back in the queue, to be sent at once and in
 * their original order. A failed member update is re-sent with the person's state as it is now (it
 * always carries the complete state), so fixing the cause — a workbook's team, a name — and retrying
 * is enough. Answers how many were re-queued.
 */
export async function retryFailedSync(db: Database, target: PersonTarget, actor: Actor): Promise<number> {
  return db.transaction(async (tx) => {
    const userId = await signInAccountOf(tx, target);
    const failed = and(eq(provisioningRequests.userId, userId), eq(provisioningRequests.status, "failed"));
    const current = await memberUpsertPayload(tx, userId);
    if (current) {
      await tx
        .update(provisioningRequests)
        .set({ payload: current })
        .where(and(failed, eq(provisioningRequests.kind, "member.upsert")));
    }
    const requeued = await tx
      .update(provisioningRequests)
      .set({ status: "pending", nextAttemptAt: new Date() })
      .where(failed)
      .returning({ id: provisioningRequests.id });
    await recordAudit(tx, {
      action: `${target.type}.sync_retried`,
      outcome: "success",
      targetType: target.type,
      targetId: String(target.type === "client" ? target.cId : target.eId),
      details: { requeued: requeued.length },
      ...auditActor(actor),
    });
    return requeued.length;
  });
}

/**
 * Removes a client's or employee's two-step verification after they lost their authenticator and backup
 * codes (decision 006): their sessions end and, where their role requires it, they set it up again at the
 * next sign-in. Answers whether they had it.
 */
export async function resetPersonTwoFactor(
  db: Database,
  target: PersonTarget,
  actor: Actor,
): Promise<boolean> {
  return resetTwoFactor(db, await signInAccountOf(db, target), actor);
}
