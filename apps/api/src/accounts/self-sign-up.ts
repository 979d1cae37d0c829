import type { TSelfSignUpRole } from "@portal/contracts";
import { eq } from "drizzle-orm";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { enqueueOutbox } from "../outbox/requests.ts";

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
    const id = await enqueueOutbox(
      tx,
      {
        userId: person.userId,
        kind: "member.upsert",
        payload: { name: input.name, email: person.email, role: input.role },
      },
      { replacePending: true },
    );
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
