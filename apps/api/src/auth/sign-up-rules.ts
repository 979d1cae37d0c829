import { SELF_SIGN_UP_ROLES, type TSelfSignUpRole } from "@portal/contracts";

/** Role of a person who creates their own account (or arrives through social sign-in) until provisioned. */
export const DEFAULT_SELF_SIGN_UP_ROLE = "author";

const SELF_SIGN_UP_PATHS = ["/sign-up/email", "/callback/", "/oauth2/callback/"];

export function isSelfSignUpRole(role: unknown): role is TSelfSignUpRole {
  return (SELF_SIGN_UP_ROLES as readonly unknown[]).includes(role);
}

export function isSelfSignUpPath(path: string | undefined): boolean {
  return !!path && SELF_SIGN_UP_PATHS.some((p) => path.startsWith(p));
}
