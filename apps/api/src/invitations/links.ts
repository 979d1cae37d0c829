import {
  requiresTwoFactor,
  type ApiErrorCode,
  type TInvitationLookupResponse,
  type TRole,
} from "@portal/contracts";
import { and, eq, isNull, sql } from "drizzle-orm";
import { hasPassword, newPasswordHash, setFirstPassword } from "../accounts/accounts.ts";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import {
  activateDelegation,
  delegateInvitee,
  splitName,
  type DelegateInvitee,
} from "../circle/delegation-record.ts";
import type { Database, Executor } from "../db/client.ts";
import { invitations, users } from "../db/schema.ts";
import { AppError } from "../lib/errors.ts";
import { PERSON_KIND } from "../people/kinds.ts";
import { personRecord } from "../people/records.ts";
import type { InvitationKind, InvitedPerson } from "./invitations.ts";
import { invitationTokenHash } from "./tokens.ts";

/**
 * The invitation page's side of a link (D55; a delegate's link, issue 23): whose it is, and accepting it. A
 * client's or employee's link sets their first password; a delegate's activates the delegation, and sets a
 * first password only where the account has none.
 */

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

/** Who sends a new link: the firm for its own invitations, the client for a delegate's. */
const askForNew = (kind: InvitationKind) =>
  kind === "delegate"
    ? "Ask the person who invited you to send a new one."
    : "Ask your advisor to send a new one.";

const WITHDRAWN = (kind: InvitationKind) =>
  linkError(
    410,
    "INVITATION_REVOKED",
    kind === "delegate"
      ? `This invitation was withdrawn. ${askForNew(kind)}`
      : `This invitation was withdrawn by the firm. ${askForNew(kind)}`,
  );

const EXPIRED = (kind: InvitationKind) =>
  linkError(410, "INVITATION_EXPIRED", `This invitation has expired. ${askForNew(kind)}`);

/**
 * The roles that may hold a delegation. A delegate's invitation to a firm staff account (admin, editor,
 * author) is sent like any other, so the client who typed the address learns nothing about it; the link
 * then refuses to be accepted, which only the address's owner sees (decision 020: staff view clients through
 * their own roles, never as a client's delegate).
 */
const DELEGATE_ROLES: ReadonlySet<TRole | null> = new Set<TRole | null>(["client", "employee", "delegate"]);

interface OpenLink {
  invitation: typeof invitations.$inferSelect;
  person: InvitedPerson;
  role: TRole | null;
  /** The account already has a password: only a delegate's link is still open then. */
  hasPassword: boolean;
  /** A delegate's link: the delegation it activates. */
  delegation?: DelegateInvitee | undefined;
}

/** The record the link was made for, as it is now; undefined once it is gone (deleted or revoked). */
async function linkRecord(
  db: Executor,
  invitation: typeof invitations.$inferSelect,
): Promise<{ person: InvitedPerson; delegation?: DelegateInvitee } | undefined> {
  const kind = invitation.kind as InvitationKind;
  if (kind === "delegate") {
    const delegation = await delegateInvitee(db, invitation.personId);
    if (!delegation) return undefined;
    const { userId, email, name, cId, clientName } = delegation;
    const client = { cId, name: clientName };
    return {
      person: { kind, personId: invitation.personId, userId, email, ...splitName(name), client },
      delegation,
    };
  }
  const record = await personRecord(db, PERSON_KIND[kind], invitation.personId);
  if (!record) return undefined;
  const { userId, firstName, lastName, email } = record;
  return { person: { kind, personId: invitation.personId, userId, firstName, lastName, email } };
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
  const kind = invitation.kind as InvitationKind;
  const found = await linkRecord(db, invitation);
  // Revoked, or the record it was for deleted (its sign-in account may since serve a new record; a revoked
  // delegation is deleted).
  if (!found || found.person.userId !== invitation.userId || invitation.revokedAt) throw WITHDRAWN(kind);
  const { person, delegation } = found;
  if (invitation.replacedAt) {
    throw linkError(
      410,
      "INVITATION_REVOKED",
      "A newer invitation was sent to you, so this link no longer works. Use the link in the latest email.",
    );
  }
  // The firm's link sets the first password, so a password set meanwhile (a reset) uses it up. A delegate's
  // link only activates the delegation: an address that already signs in accepts it as it is.
  const passwordSet = await hasPassword(db, person.userId);
  if (passwordSet && !delegation) throw USED();
  if (invitation.expiresAt.getTime() <= Date.now()) throw EXPIRED(kind);
  if (delegation?.ended) {
    throw linkError(
      410,
      "INVITATION_EXPIRED",
      `The access ${delegation.clientName} offered in this invitation has already ended. ${askForNew(kind)}`,
    );
  }
  const [user] = await db
    .select({ role: users.role, banned: users.banned })
    .from(users)
    .where(eq(users.id, person.userId));
  if (!user || user.banned) throw WITHDRAWN(kind);
  const role = user.role as TRole | null;
  if (delegation && !DELEGATE_ROLES.has(role)) {
    throw new AppError(
      403,
      "This address belongs to a firm staff account, which cannot view a client's workbooks as their delegate. Ask the person who invited you to use another address.",
      "FORBIDDEN",
    );
  }
  return { invitation, person, role, hasPassword: passwordSet, delegation };
}

/** The invitation page's first question: whose link this is, and whether it may still be used. */
export async function lookupInvitation(
  db: Database,
  token: string,
  mfaRequiredRoles: TRole[],
): Promise<TInvitationLookupResponse> {
  const { invitation, person, role, hasPassword: passwordSet } = await openLink(db, token);
  return {
    firstName: person.firstName,
    email: person.email,
    kind: person.kind,
    expiresAt: invitation.expiresAt.toISOString(),
    twoStepRequired: requiresTwoFactor(role, mfaRequiredRoles),
    invitedBy: person.client?.name ?? null,
    hasPassword: passwordSet,
  };
}

/**
 * The password accepting sets (hashed under the accounts module's policy): required while the account has
 * none. An account that has one (a delegate's link to someone who already signs in) keeps it, and a password
 * sent then is refused rather than ignored, so nobody believes they changed it.
 */
async function acceptedPassword(link: OpenLink, password: string | undefined): Promise<string | null> {
  if (link.hasPassword) {
    if (password === undefined) return null;
    throw new AppError(
      400,
      "You already have a password for the portal: accept without one, then sign in with your password.",
      "INVALID_INPUT",
    );
  }
  if (password === undefined) throw new AppError(400, "Password is required.", "INVALID_INPUT");
  const { email, firstName, lastName } = link.person;
  return newPasswordHash(password, { email, name: `${firstName} ${lastName}`.trim() });
}

export interface AcceptedInvitation {
  email: string;
  twoStepRequired: boolean;
  /** A first password was set (false: a delegate who signs in with the password they had). */
  passwordSet: boolean;
  /** A delegate's invitation: the client whose workbooks they may now view. */
  invitedBy: string | null;
}

/**
 * Accepting: the person's first password (the accounts module's policy), set once; for a delegate's link, the
 * delegation activated (`circle/delegation-record.ts`). The link is marked used in the same transaction, by a
 * conditional update, so two uses at once succeed once.
 */
export async function acceptInvitation(
  db: Database,
  input: { token: string; password?: string | undefined },
  mfaRequiredRoles: TRole[],
  source: AuditSource,
): Promise<AcceptedInvitation> {
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
  const { invitation, person, role, delegation } = link;
  const passwordHash = await acceptedPassword(link, input.password);
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
    if (!claimed) throw USED();
    if (passwordHash !== null) {
      if (await hasPassword(tx, person.userId)) throw USED();
      await setFirstPassword(tx, person.userId, passwordHash);
    }
    // Revoked between the lookup and now: the delegation is gone, and nothing of this transaction stays.
    if (delegation && !(await activateDelegation(tx, delegation, source))) throw WITHDRAWN(person.kind);
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
  return {
    email: person.email,
    twoStepRequired: requiresTwoFactor(role, mfaRequiredRoles),
    passwordSet: passwordHash !== null,
    invitedBy: person.client?.name ?? null,
  };
}
