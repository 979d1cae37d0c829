import { requiresTwoFactor } from "@portal/contracts";
import type { AppConfig } from "../config.ts";

/** True for someone whose role requires two-step verification (MFA_REQUIRED_ROLES) and who has not set it up. */
export function mustEnrol(
  person: { role: string | null | undefined; twoFactorEnabled?: boolean | null | undefined },
  config: Pick<AppConfig, "mfaRequiredRoles">,
): boolean {
  return requiresTwoFactor(person.role, config.mfaRequiredRoles) && person.twoFactorEnabled !== true;
}
