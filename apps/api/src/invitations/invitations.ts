import type { INVITATION_KIND_NAMES, TInvitationState, TPersonKind } from "@portal/contracts";
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { hasPassword } from "../accounts/accounts.ts";
import { auditActor, type Actor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database, Executor, Transaction } from "../db/client.ts";
import { invitations } from "../db/schema.ts";
import { PERSON_KIND } from "../people/kinds.ts";
import { findPerson } from "../people/records.ts";
import { AppError } from "../lib/errors.ts";
import { invitationTokenHash, newInvitationToken } from "./tokens.ts";

/**
 * Invitations (issue 13 point 1, DEVIATIONS D55): a client or employee added without a password gets an email
 * with a single-use link; they choose their own password on /invitation and sign in. The database keeps only
 * the token's hash; each link belongs to one record (`kind`, `person_id`) and ends accepted, revoked, replaced
 * by a resent one, or expired. Mail goes out after the transaction that made the link commits (`mail.ts`).
 * A client invites a delegate through the same links (`kind` delegate, issue 23). Opening and accepting a
 * link is `links.ts`.
 */

/** A client's or employee's link from the firm, or a delegate's from a client (issue 23, decision 020). */
export type InvitationKind = (typeof INVITATION_KIND_NAMES)[number];

/** The person an invitation is for, as the mail and the page need them. */
export interface InvitedPerson {
  kind: InvitationKind;
  /** The record the link belongs to: a `c_id`, an `e_id`, or a delegation's id. */
  personId: number;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  /** A delegate's invitation: the client who invited them (the mail and the page name them). */
  client?: { cId: number; name: string };
}

/** A link just made: its token (for the email only) and the state the lists show. */
export interface IssuedInvitation {
  token: string;
  person: InvitedPerson;
  state: TInvitationState;
}

const iso = (d: Date) => d.toISOString();

/** The client or employee with this id (404 when there is none, as for every admin route). */
export async function invitedPerson(
  db: Executor,
  kind: TPersonKind,
  personId: number,
  lock = false,
): Promise<InvitedPerson> {
  const { userId, firstName, lastName, email } = await findPerson(db, PERSON_KIND[kind], personId, lock);
  return { kind, personId, userId, firstName, lastName, email };
}

/**
 * Makes a new link for the person inside the caller's transaction; any link of theirs still open stops working
 * (replaced). Answers the token for the email.
 */
export async function issueInvitation(
  tx: Transaction,
  person: InvitedPerson,
  lifetimeMs: number,
  actor: Actor,
): Promise<IssuedInvitation> {
  await tx
    .update(invitations)
    .set({ replacedAt: new Date() })
    .where(
      and(
        eq(invitations.kind, person.kind),
        eq(invitations.personId, person.personId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        isNull(invitations.replacedAt),
      ),
    );
  const token = newInvitationToken();
  const [created] = await tx
    .insert(invitations)
    .values({
      userId: person.userId,
      kind: person.kind,
      personId: person.personId,
      tokenHash: invitationTokenHash(token),
      // From the database's clock, as `created_at`: the lists show both.
      expiresAt: sql`now() + ${lifetimeMs} * interval '1 millisecond'`,
      sentBy: actor.userId,
    })
    .returning({ createdAt: invitations.createdAt, expiresAt: invitations.expiresAt });
  return {
    token,
    person,
    state: { status: "pending", sent_at: iso(created!.createdAt), expires_at: iso(created!.expiresAt) },
  };
}

/**
 * The list column `invitation`: the person's latest invitation while their account has no password (null
 * once they set one, or for someone added with a password). `kind` is a constant, `personId` and `userId`
 * columns of the list's row.
 */
export function invitationStateColumn(kind: TPersonKind, personId: SQL, userId: SQL): SQL {
  return sql`(
      select json_build_object(
               'status', case when i.revoked_at is not null then 'revoked'
                              when i.expires_at <= now() then 'expired' else 'pending' end,
               'sent_at', to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'expires_at', to_char(i.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        from invitations i
       where i.kind = ${kind} and i.person_id = ${personId} and i.accepted_at is null
         and not exists (select 1 from accounts a where a.user_id = ${userId} and a.provider_id = 'credential')
       order by i.created_at desc
       limit 1) as invitation`;
}

/** The latest invitation of the person and its state, or null when they never had one. */
async function latestInvitation(db: Executor, person: InvitedPerson) {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.kind, person.kind), eq(invitations.personId, person.personId)))
    .orderBy(desc(invitations.createdAt))
    .limit(1);
  return row;
}

function stateOf(row: typeof invitations.$inferSelect): TInvitationState {
  return {
    status: row.revokedAt ? "revoked" : row.expiresAt.getTime() <= Date.now() ? "expired" : "pending",
    sent_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
  };
}

/** Resend: a new link for someone who has not set a password yet; the previous link stops working. */
export async function resendInvitation(
  db: Database,
  kind: TPersonKind,
  personId: number,
  lifetimeMs: number,
  actor: Actor,
): Promise<IssuedInvitation> {
  return db.transaction(async (tx) => {
    const person = await invitedPerson(tx, kind, personId, true);
    if (await hasPassword(tx, person.userId)) {
      throw new AppError(
        409,
        `${person.firstName} ${person.lastName} already has a password. Send a password reset email from their edit page instead.`,
        "ALREADY_HAS_PASSWORD",
      );
    }
    const before = await latestInvitation(tx, person);
    const issued = await issueInvitation(tx, person, lifetimeMs, actor);
    await recordAudit(tx, {
      action: "invitation.resent",
      outcome: "success",
      targetType: kind,
      targetId: String(personId),
      before: before ? stateOf(before) : null,
      after: issued.state,
      details: { email: person.email },
      ...auditActor(actor),
    });
    return issued;
  });
}

/** Revoke: the open link stops working. The person stays, without a password, until a new link is sent. */
export async function revokeInvitation(
  db: Database,
  kind: TPersonKind,
  personId: number,
  actor: Actor,
): Promise<TInvitationState> {
  return db.transaction(async (tx) => {
    const person = await invitedPerson(tx, kind, personId, true);
    const latest = await latestInvitation(tx, person);
    const open =
      latest &&
      !latest.acceptedAt &&
      !latest.revokedAt &&
      !latest.replacedAt &&
      !(await hasPassword(tx, person.userId));
    if (!latest || !open) {
      throw new AppError(
        409,
        `${person.firstName} ${person.lastName} has no open invitation to revoke.`,
        "NO_OPEN_INVITATION",
      );
    }
    const [revoked] = await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(eq(invitations.id, latest.id))
      .returning();
    const after = stateOf(revoked!);
    await recordAudit(tx, {
      action: "invitation.revoked",
      outcome: "success",
      targetType: kind,
      targetId: String(personId),
      before: stateOf(latest),
      after,
      details: { email: person.email },
      ...auditActor(actor),
    });
    return after;
  });
}
