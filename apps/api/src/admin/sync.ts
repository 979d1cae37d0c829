import { and, eq } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { clients, employees, provisioningRequests } from "../db/schema.ts";
import { notFound } from "../lib/errors.ts";
import { memberUpsertPayload } from "./people.ts";
import { auditActor, type Actor } from "./shared.ts";

/**
 * Puts a client's or employee's failed BI changes back in the queue, to be sent at once and in
 * their original order. A failed member update is re-sent with the person's state as it is now (it
 * always carries the complete state), so fixing the cause — a workbook's team, a name — and retrying
 * is enough. Answers how many were re-queued.
 */
export async function retryFailedSync(
  db: Database,
  target: { type: "client"; cId: number } | { type: "employee"; eId: number },
  actor: Actor,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] =
      target.type === "client"
        ? await tx.select({ userId: clients.userId }).from(clients).where(eq(clients.cId, target.cId))
        : await tx.select({ userId: employees.userId }).from(employees).where(eq(employees.eId, target.eId));
    if (!row) throw notFound(target.type === "client" ? "Client not found." : "Employee not found.");
    const failed = and(
      eq(provisioningRequests.userId, row.userId),
      eq(provisioningRequests.status, "failed"),
    );
    const current = await memberUpsertPayload(tx, row.userId);
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
