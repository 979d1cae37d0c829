import { z } from "zod";

// ---- Sign-in security (issue 24): how people signed in, passkeys, the firm's two-step policy ----

/**
 * How a session was reached: `password` (the password alone), `code` (the password, then a code from an
 * authenticator app, an email or a backup code), `passkey`, `password_passkey` (the password, then the passkey
 * added while setting up two-step verification), `social` (a social or single sign-on provider).
 */
export const SIGN_IN_METHODS = ["password", "code", "passkey", "password_passkey", "social"] as const;
export const ZSignInMethodSchema = z.enum(SIGN_IN_METHODS);
export type TSignInMethod = z.infer<typeof ZSignInMethodSchema>;

/** How /profile and /admin/audit name a sign-in method. */
export const SIGN_IN_METHOD_LABELS: Record<TSignInMethod, string> = {
  password: "Password",
  code: "Password and code",
  passkey: "Passkey",
  password_passkey: "Password and new passkey",
  social: "Single sign-on",
};

/** The roles the firm may require two-step verification of, besides admins (always required). */
export const POLICY_MFA_ROLES = ["employee", "client"] as const;
export const ZPolicyMfaRoleSchema = z.enum(POLICY_MFA_ROLES);

/**
 * GET|PUT /api/admin/settings/sign-in: "Require two-step verification for: admins, employees, clients" (admins
 * always, so not listed) and whether a six-digit code by email may be the second step.
 */
export const ZSignInPolicySchema = z.strictObject({
  mfaRequiredRoles: z.array(ZPolicyMfaRoleSchema).max(POLICY_MFA_ROLES.length),
  emailCodes: z.boolean(),
});
export type TSignInPolicy = z.infer<typeof ZSignInPolicySchema>;

/**
 * Where the signed-in person stands with two-step verification (added by the portal to Better Auth's
 * get-session answer as `secondStep`): `enrolled` (an authenticator app, email codes or a passkey), `required`
 * (the firm requires one and there is none: set it up before anything else), `passkey_sign_in` (the only second
 * step is a passkey and this session was reached with the password alone: sign in with the passkey), `optional`.
 */
export const SECOND_STEP_STATUSES = ["enrolled", "required", "passkey_sign_in", "optional"] as const;
export type TSecondStepStatus = (typeof SECOND_STEP_STATUSES)[number];
export interface TSecondStep {
  status: TSecondStepStatus;
  /** The firm requires a second step of this person's role (so the last one cannot be removed). */
  requiredForRole: boolean;
}
