/**
 * The audit trail's vocabulary in one place: `recordAudit` accepts only these action names and
 * outcomes, so a misspelt action fails the type check instead of writing a row no report will find.
 * Add a name here before using it; never rename one (rows already written keep the old name).
 */
export const AUDIT_ACTIONS = [
  "auth.sign_in",
  "auth.sign_out",
  "auth.sign_up",
  "auth.password_reset.requested",
  "auth.password_reset.completed",
  "auth.mfa.challenge",
  "auth.mfa.verify",
  "auth.mfa.enrolment_started",
  "auth.mfa.enabled",
  "auth.mfa.disabled",
  "auth.mfa.backup_codes_regenerated",
  "auth.mfa.reset",
  "auth.password_changed",
  /** A passkey added on /profile or while setting up two-step verification (issue 24). */
  "auth.passkey.added",
  "auth.passkey.renamed",
  /** A passkey removed (denied: it was the last second step of someone who must have one). */
  "auth.passkey.removed",
  /** A six-digit code sent by email as the second step (issue 24). */
  "auth.mfa.code_sent",
  /** A sign-in from a browser the account had not used: the person was mailed (issue 24). */
  "auth.new_device",
  /** "This wasn't me" from a new-device alert: every session ended, a password reset started. */
  "auth.not_me",
  /** The person's name changed through Better Auth's update-user (the profile). */
  "user.name_changed",
  /** A request to /api/auth refused before its endpoint ran (lock, gate, policy, per-IP limit). */
  "auth.request_refused",
  "user.created",
  "user.credentials_reset",
  "user.provision_requested",
  "user.demo_retired",
  /** A person's account brought over by `npm run import:firebase` (decision 012). */
  "user.imported",
  /** One run of `npm run import:firebase`: how many were imported and skipped. */
  "user.import_completed",
  /** An imported Firebase password hash replaced by Argon2id at its owner's first sign-in. */
  "user.password_rehashed",
  /** A person signed out one of their sessions from the profile (denied: not theirs, or ended already). */
  "session.revoked",
  /** A person signed out of all their other sessions from the profile. */
  "session.revoked_others",
  /** An admin ended all of a person's sessions (Edit Client / Edit Employee). */
  "user.sessions_revoked",
  /** An invitation email was sent to a client or employee added without a password (D55). */
  "invitation.sent",
  /** An admin sent a new invitation link; the previous one stopped working. */
  "invitation.resent",
  /** An admin revoked an open invitation: its link stops working. */
  "invitation.revoked",
  /** The person set their password through the link (denied: a used, expired, revoked or unknown link). */
  "invitation.accepted",
  /** An admin sent a person a password-reset email from Edit Client / Edit Employee. */
  "user.password_reset_sent",
  "client.created",
  "client.updated",
  "client.deleted",
  "client.sync_retried",
  "employee.created",
  "employee.updated",
  "employee.deleted",
  "employee.sync_retried",
  /** A CSV import of clients or employees was started (decision 013); each person gets their own created row. */
  "people_import.started",
  /** A CSV import finished: how many were created, skipped and failed. */
  "people_import.completed",
  "sync.retried",
  "sync.retried_all",
  "workbook.created",
  "workbook.updated",
  "workbook.deleted",
  "embed.issued",
  "embed.view_as",
  "embed.denied",
  /** An admin exported the audit log as CSV (/admin/audit), with the filters used. */
  "audit.exported",
  /** An admin changed the firm's name, primary colour or support email (/admin/settings). */
  "branding.updated",
  /** An admin uploaded a new logo (its type, size and SHA-256 in the row, never the file). */
  "branding.logo_replaced",
  /** An admin removed the logo: the portal shows its built-in mark again. */
  "branding.logo_removed",
  /** A signed-in person was refused a protected resource (403). */
  "access.denied",
  /** A client (or an admin for them) invited a delegate to view their workbooks (issue 23). */
  "delegate.invited",
  /** The delegate accepted through the invitation link (denied: see invitation.accepted). */
  "delegate.accepted",
  /** A delegation's workbooks or end date changed. */
  "delegate.changed",
  /** A delegation was revoked by the client or an admin; the delegate is refused from then on. */
  "delegate.revoked",
  /** The client was mailed that a delegation ends in a week. */
  "delegate.reminder_sent",
  "household.created",
  "household.changed",
  "household.deleted",
  /** An admin turned "Clients may invite people to view their workbooks" on or off (/admin/settings). */
  "policy.updated",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ["success", "failure", "denied", "rate_limited"] as const;

export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
