import {
  requiresTwoFactor,
  type TPersonKind,
  type TInvitationLookupResponse,
  type TInvitationState,
  type TRole,
} from "@portal/contracts";
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { hasPassword, newPasswordHash, setFirstPassword } from "../accounts/accounts.ts";
import { auditActor, type Actor } from "../audit/actor.ts";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import type { Database, Executor, Transaction } from "../db/client.ts";
import { invitations, users } from "../db/schema.ts";
import { PERSON_KIND } from "../people/kinds.ts";
import { findPerson, personRecord } from "../people/records.ts";
import type { ApiErrorCode } from "@portal/contracts";
import { AppError } from "../lib/errors.ts";
import { invitationTokenHash, newInvitationToken } from "./tokens.ts";

/**
 * Invitations (issue 13 point 1, DEVIATIONS D55): a client or employee added without a password gets an email
 * with a single-use link; they choose their own password on /invitation and sign in. The database keeps only
 * the token's hash; each link belongs to one record (`kind`, `person_id`) and ends accepted, revoked, replaced
 * by a resent one, or expired. Mail goes out after the transaction that made the link commits (`mail.ts`).
 */

/** The person an invitation is for, as the mail and the page need them. */
export interface InvitedPerson {
  kind: TPersonKind;
  personId: number;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
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

/** A link that cannot be used: 404 for a token never issued, 410 for one that ended, each said plainly. */
function linkError(status: 404 | 410, code: ApiErrorCode, message: string) {
  return new AppError(status, message, code);
}

const USED = () =>
  linkError(
    410,
    "INVITATION_USED",
    "This invitation was already used to set a password. Sign in with that password, or reset it from the sign-in page.",
  );

const WITHDRAWN = () =>
  linkError(
    410,
    "INVITATION_REVOKED",
    "This invitation was withdrawn by the firm. Ask your advisor to send a new one.",
  );

interface OpenLink {
  invitation: typeof invitations.$inferSelect;
  person: InvitedPerson;
  role: TRole | null;
}

/** The link's invitation while it may still be used; otherwise the readable reason why not. */
async function openLink(db: Executor, token: string): Promise<OpenLink> {
  const [invitation] = await db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, invitationTokenHash(token)));
  if (!invitation) {
    throw linkError(
      404,
      "INVITATION_INVALID",
      "This invitation link is not valid. Use the link in the latest invitation email.",
    );
  }
  if (invitation.acceptedAt) throw USED();
  const kind = invitation.kind as TPersonKind;
  const record = await personRecord(db, PERSON_KIND[kind], invitation.personId);
  const person = record && { kind, personId: invitation.personId, ...record };
  // Revoked, or the record it was for deleted (its sign-in account may since serve a new record).
  if (!person || person.userId !== invitation.userId || invitation.revokedAt) throw WITHDRAWN();
  if (invitation.replacedAt) {
    throw linkError(
      410,
      "INVITATION_REVOKED",
      "A newer invitation was sent to you, so this link no longer works. Use the link in the latest email.",
    );
  }
  if (await hasPassword(db, person.userId)) throw USED();
  if (invitation.expiresAt.getTime() <= Date.now()) {
    throw linkError(
      410,
      "INVITATION_EXPIRED",
      "This invitation has expired. Ask your advisor to send a new one.",
    );
  }
  const [user] = await db
    .select({ role: users.role, banned: users.banned })
    .from(users)
    .where(eq(users.id, person.userId));
  if (!user || user.banned) throw WITHDRAWN();
  return { invitation, person, role: user.role as TRole | null };
}

/** The invitation page's first question: whose link this is, and whether it may still be used. */
export async function lookupInvitation(
  db: Database,
  token: string,
  mfaRequiredRoles: TRole[],
): Promise<TInvitationLookupResponse> {
  const { invitation, person, role } = await openLink(db, token);
  return {
    firstName: person.firstName,
    email: person.email,
    kind: person.kind,
    expiresAt: iso(invitation.expiresAt),
    twoStepRequired: requiresTwoFactor(role, mfaRequiredRoles),
  };
}

/**
 * Accepting: the person's first password (the accounts module's policy), set once. The link is marked used in
 * the same transaction that sets the password, by a conditional update, so two uses at once set it once.
 */
export async function acceptInvitation(
  db: Database,
  input: { token: string; password: string },
  mfaRequiredRoles: TRole[],
  source: AuditSource,
): Promise<{ email: string; twoStepRequired: boolean }> {
  let link: OpenLink;
  try {
    link = await openLink(db, input.token);
  } catch (error) {
    if (error instanceof AppError) {
      await recordAudit(db, {
        action: "invitation.accepted",
        outcome: "denied",
        details: { status: error.status, code: error.code },
        ...source,
      });
    }
    throw error;
  }
  const { invitation, person, role } = link;
  const passwordHash = await newPasswordHash(input.password, {
    email: person.email,
    name: `${person.firstName} ${person.lastName}`,
  });
  await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date() })
      .where(
        and(
          eq(invitations.id, invitation.id),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          isNull(invitations.replacedAt),
          sql`${invitations.expiresAt} > now()`,
        ),
      )
      .returning({ id: invitations.id });
    if (!claimed || (await hasPassword(tx, person.userId))) throw USED();
    await setFirstPassword(tx, person.userId, passwordHash);
    await recordAudit(tx, {
      action: "invitation.accepted",
      outcome: "success",
      actorUserId: person.userId,
      actorEmail: person.email,
      targetType: person.kind,
      targetId: String(person.personId),
      ...source,
    });
  });
  return { email: person.email, twoStepRequired: requiresTwoFactor(role, mfaRequiredRoles) };
}
