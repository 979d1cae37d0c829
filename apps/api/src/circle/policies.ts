import type { TDelegationSetting } from "@portal/contracts";
import { eq, sql } from "drizzle-orm";
import { auditActor, type Actor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database, Executor } from "../db/client.ts";
import { firmPolicies } from "../db/schema.ts";

/**
 * The firm's policies (/admin/settings, issue 23): one row, id 1, absent until an admin first saves them, so a
 * portal that never did has the defaults. Today one policy: "Clients may invite people to view their
 * workbooks" (on by default). Turning it off stops new invitations by clients only: delegates already invited
 * keep their access, clients can still remove them, and admins can still invite for a client.
 */
const POLICY_ROW = 1;

/** Whether clients may invite delegates themselves (true while the firm has not saved its policies). */
export async function clientsMayInvite(db: Executor): Promise<boolean> {
  const [row] = await db
    .select({ clientsMayInvite: firmPolicies.clientsMayInvite })
    .from(firmPolicies)
    .where(eq(firmPolicies.id, POLICY_ROW));
  return row?.clientsMayInvite ?? true;
}

/** The delegation setting as /admin/settings shows it. */
export async function delegationSetting(db: Executor): Promise<TDelegationSetting> {
  return { clientsMayInvite: await clientsMayInvite(db) };
}

/** Saves the setting with its audit row (before and after) in one transaction. */
export async function saveDelegationSetting(
  db: Database,
  setting: TDelegationSetting,
  actor: Actor,
): Promise<TDelegationSetting> {
  return db.transaction(async (tx) => {
    // The row lock (or, while there is no row, the insert's conflict) puts concurrent saves in one order, so
    // each audit row's `before` is what the previous save left.
    const [current] = await tx
      .select({ clientsMayInvite: firmPolicies.clientsMayInvite })
      .from(firmPolicies)
      .where(eq(firmPolicies.id, POLICY_ROW))
      .for("update");
    const before = { clientsMayInvite: current?.clientsMayInvite ?? true };
    await tx
      .insert(firmPolicies)
      .values({ id: POLICY_ROW, clientsMayInvite: setting.clientsMayInvite, updatedBy: actor.userId })
      .onConflictDoUpdate({
        target: firmPolicies.id,
        set: { clientsMayInvite: setting.clientsMayInvite, updatedBy: actor.userId, updatedAt: sql`now()` },
      });
    const after = { clientsMayInvite: setting.clientsMayInvite };
    await recordAudit(tx, {
      action: "policy.updated",
      outcome: "success",
      targetType: "policy",
      targetId: "delegation",
      before,
      after,
      ...auditActor(actor),
    });
    return after;
  });
}
