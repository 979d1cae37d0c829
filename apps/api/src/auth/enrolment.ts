import {
  requiresTwoFactor,
  type ApiErrorCode,
  type TSecondStep,
  type TSecondStepStatus,
} from "@portal/contracts";
import { isTwoStepSignIn } from "./sign-in-method.ts";

/** What decides whether a person's session may reach data under the two-step policy (decision 006, issue 24). */
export interface SecondStepFacts {
  role: string | null | undefined;
  /** A confirmed authenticator app (or email codes): Better Auth asks for a code after the password. */
  twoFactorEnabled?: boolean | null | undefined;
  /** At least one passkey. */
  hasPasskey?: boolean | undefined;
  /** How this session was reached (sessions.sign_in_method). */
  signInMethod?: string | null | undefined;
}

/** True for someone whose role requires two-step verification and who has no second step yet. */
export function mustEnrol(person: SecondStepFacts, requiredRoles: readonly string[]): boolean {
  return (
    requiresTwoFactor(person.role, requiredRoles) &&
    person.twoFactorEnabled !== true &&
    person.hasPasskey !== true
  );
}

/**
 * True for someone who must have a second step, whose only one is a passkey, in a session reached without it
 * (the password alone): they sign in with the passkey instead.
 */
export function needsPasskeySignIn(person: SecondStepFacts, requiredRoles: readonly string[]): boolean {
  return (
    requiresTwoFactor(person.role, requiredRoles) &&
    person.twoFactorEnabled !== true &&
    person.hasPasskey === true &&
    !isTwoStepSignIn(person.signInMethod)
  );
}

export const PASSKEY_SIGN_IN_REQUIRED = "PASSKEY_SIGN_IN_REQUIRED" satisfies ApiErrorCode;
export const PASSKEY_SIGN_IN_REQUIRED_MESSAGE =
  "Your account's second step is a passkey. Sign in with your passkey.";

/** The person's standing with two-step verification, as get-session tells the web app (`secondStep`). */
export function secondStepOf(person: SecondStepFacts, requiredRoles: readonly string[]): TSecondStep {
  const requiredForRole = requiresTwoFactor(person.role, requiredRoles);
  const status: TSecondStepStatus = needsPasskeySignIn(person, requiredRoles)
    ? "passkey_sign_in"
    : mustEnrol(person, requiredRoles)
      ? "required"
      : person.twoFactorEnabled === true || person.hasPasskey === true
        ? "enrolled"
        : "optional";
  return { status, requiredForRole };
}

/**
 * Whether a get-session answer (with the portal's `secondStep`) is of someone the two-step policy still holds
 * back: no second step yet, or a passkey holder signed in with the password alone. No answer counts as held back.
 */
export function secondStepMissing(session: object): boolean {
  const status = (session as { secondStep?: TSecondStep }).secondStep?.status;
  return status === undefined || status === "required" || status === "passkey_sign_in";
}
