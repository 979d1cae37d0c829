/** The error code of a 403 for someone whose role requires two-step verification they have not set up. */
export const MFA_ENROLLMENT_REQUIRED = "MFA_ENROLLMENT_REQUIRED";

export const MFA_ENROLLMENT_REQUIRED_MESSAGE =
  "Your role requires two-step verification. Set it up to continue.";

/**
 * Whether a person with `role` (Better Auth's role field, possibly a comma-separated list) must use
 * two-step verification under `requiredRoles` (MFA_REQUIRED_ROLES). Decision 006.
 */
export function requiresTwoFactor(
  role: string | null | undefined,
  requiredRoles: readonly string[],
): boolean {
  if (typeof role !== "string" || requiredRoles.length === 0) return false;
  return role.split(",").some((r) => requiredRoles.includes(r.trim()));
}
