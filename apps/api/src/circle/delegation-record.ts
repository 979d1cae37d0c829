import { and, eq, isNull, sql } from "drizzle-orm";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import type { Executor, Transaction } from "../db/client.ts";
import { rows } from "../db/rows.ts";
import { delegations } from "../db/schema.ts";
import { queueMemberUpsert } from "../people/member-sync.ts";

/**
 * A delegation as its invitation link sees it (`invitations.kind = 'delegate'`, `person_id` = the delegation):
 * the person invited and the client who invited them. The invitation module reads it to open, show and accept
 * the link; it imports nothing from there, so the two never form a cycle.
 */
export interface DelegateInvitee {
  delegationId: number;
  userId: string;
  /** As the client wrote it ("Daniel Reyes"). */
  name: string;
  email: string;
  cId: number;
  /** The client's first and last name ("Olivia Bennett"). */
  clientName: string;
  /** The delegation's end date has passed: accepting it would give nothing. */
  ended: boolean;
}

/** A full name as a first and a last name, for mail greetings ("Hello Daniel,") and the password policy. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [firstName = name, ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(" ") };
}

/** The delegation behind a link; undefined once it was revoked (deleted) or its client deleted. */
export async function delegateInvitee(
  db: Executor,
  delegationId: number,
): Promise<DelegateInvitee | undefined> {
  const [row] = rows<{
    user_id: string;
    name: string;
    email: string;
    c_id: number;
    first_name: string;
    last_name: string;
    ended: boolean;
  }>(
    await db.execute(sql`
      select d.user_id, d.name, d.email, d.c_id, c.first_name, c.last_name,
             coalesce(d.expires_at <= now(), false) as ended
        from delegations d join clients c on c.c_id = d.c_id
       where d.id = ${delegationId}`),
  );
  return (
    row && {
      delegationId,
      userId: row.user_id,
      name: row.name,
      email: row.email,
      cId: row.c_id,
      clientName: `${row.first_name} ${row.last_name}`,
      ended: row.ended,
    }
  );
}

/**
 * Accepting the link activates the delegation, inside the caller's transaction (the one that marks the link
 * used): `accepted_at`, the audit row naming the delegate (actor) and the client (target), and the delegate's
 * BI member queued with what is now shared with them. False when it was accepted or removed meanwhile.
 */
export async function activateDelegation(
  tx: Transaction,
  invitee: DelegateInvitee,
  source: AuditSource,
): Promise<boolean> {
  const [activated] = await tx
    .update(delegations)
    .set({ acceptedAt: sql`now()` })
    .where(
      and(
        eq(delegations.id, invitee.delegationId),
        eq(delegations.userId, invitee.userId),
        isNull(delegations.acceptedAt),
      ),
    )
    .returning({ id: delegations.id });
  if (!activated) return false;
  await recordAudit(tx, {
    action: "delegate.accepted",
    outcome: "success",
    actorUserId: invitee.userId,
    actorEmail: invitee.email,
    targetType: "client",
    targetId: String(invitee.cId),
    details: { delegationId: invitee.delegationId, email: invitee.email },
    ...source,
  });
  await queueMemberUpsert(tx, invitee.userId);
  return true;
}
