import type { TSelfSignUpRole } from "@portal/contracts";
import { and, eq } from "drizzle-orm";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { provisioningRequests, users } from "../db/schema.ts";

/**
 * Records a self-registered person's name and editor/author role and queues their analytics (BI) member,
 * in one audited transaction. Called when they confirm their email address (auth.ts) and by
 * POST /api/sigma/provision; a pending request of theirs is updated rather than queued twice.
 * Answers the outbox request's id.
 */
export async function queueSelfSignUpProvisioning(
  db: Database,
  person: { userId: string; email: string },
  input: { name: string; role: TSelfSignUpRole },
  source: AuditSource,
): Promise<string> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: users.name, role: users.role })
      .from(users)
      .where(eq(users.id, person.userId));
    await tx.update(users).set({ role: input.role, name: input.name }).where(eq(users.id, person.userId));
    const payload = { name: input.name, email: person.email, role: input.role };
    const [pending] = await tx
      .select({ id: provisioningRequests.id })
      .from(provisioningRequests)
      .where(
        and(
          eq(provisioningRequests.userId, person.userId),
          eq(provisioningRequests.kind, "member.upsert"),
          eq(provisioningRequests.status, "pending"),
        ),
      );
    let id: string;
    if (pending) {
      await tx.update(provisioningRequests).set({ payload }).where(eq(provisioningRequests.id, pending.id));
      id = pending.id;
    } else {
      const [created] = await tx
        .insert(provisioningRequests)
        .values({ userId: person.userId, kind: "member.upsert", payload })
        .returning({ id: provisioningRequests.id });
      id = created!.id;
    }
    await recordAudit(tx, {
      action: "user.provision_requested",
      outcome: "success",
      actorUserId: person.userId,
      actorEmail: person.email,
      targetType: "user",
      targetId: person.userId,
      before,
      after: { name: input.name, role: input.role },
      ...source,
    });
    return id;
  });
}
