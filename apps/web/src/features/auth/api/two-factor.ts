import type { ApiErrorCode, TSecondStep, TSecondStepStatus } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { apiErrorCode, toRequestError } from "@/lib/errors";
import type { TErrorLike } from "@/lib/errors";
import { useSession } from "@/lib/session";
import type { TSession } from "@/lib/session";

const MESSAGES: Partial<Record<ApiErrorCode, string>> = {
  INVALID_PASSWORD: "That password is not right.",
  INVALID_CODE: "That code is not right. Check your authenticator app and try again.",
};

function twoFactorError(error: TErrorLike, fallback: string) {
  const code = apiErrorCode(error.code);
  const known = code ? MESSAGES[code] : undefined;
  return toRequestError(known ? { ...error, message: known } : error, fallback);
}

export type TEnrolment = { totpURI: string; backupCodes: string[] };

/** Starts enrolment: checks the password, makes a new TOTP secret and backup codes (not active yet). */
export async function startTwoFactor(password: string): Promise<TEnrolment> {
  const { data, error } = await authClient.twoFactor.enable({ password });
  if (error) throw twoFactorError(error, "Two-step verification could not be started. Please try again.");
  return data;
}

/** Confirms enrolment with the first code from the authenticator app; from now on sign-in asks for a code. */
export async function confirmTwoFactor(code: string): Promise<void> {
  const { error } = await authClient.twoFactor.verifyTotp({ code });
  if (error) throw twoFactorError(error, "The code could not be checked. Please try again.");
}

/** Mails a six-digit code to confirm enrolment with codes by email (where the firm allows them, issue 24). */
export async function sendEnrolmentEmailCode(): Promise<void> {
  const { error } = await authClient.twoFactor.sendOtp();
  if (error) throw twoFactorError(error, "The code could not be sent. Please try again.");
}

/** Confirms enrolment with the emailed code; from now on sign-in asks for a code (by email or from an app). */
export async function confirmTwoFactorByEmail(code: string): Promise<void> {
  const { error } = await authClient.twoFactor.verifyOtp({ code });
  if (error) throw twoFactorError(error, "The code could not be checked. Please try again.");
}

/** Turns two-step verification off (only where the role does not require it); needs the password. */
export async function turnOffTwoFactor(password: string): Promise<void> {
  const { error } = await authClient.twoFactor.disable({ password });
  if (error) throw twoFactorError(error, "Two-step verification could not be turned off. Please try again.");
}

/** The base32 key inside an otpauth:// URI, for typing into an authenticator app. */
export function totpKeyOf(totpURI: string): string {
  try {
    return new URL(totpURI).searchParams.get("secret") ?? "";
  } catch {
    return "";
  }
}

/**
 * Where the signed-in person stands with two-step verification: the portal adds it to Better Auth's
 * get-session answer (`secondStep`, contracts `TSecondStep`), decided on the server from the firm's policy, the
 * person's authenticator app and passkeys and how this session signed in. Undefined without a session.
 */
export function secondStepOf(session: TSession | null | undefined): TSecondStep | undefined {
  return session ? (session as TSession & { secondStep?: TSecondStep }).secondStep : undefined;
}

/** "pending" until the session is read; then the session's `secondStep.status`. */
export type TTwoFactorStatus = "pending" | TSecondStepStatus;

/**
 * Whether the signed-in person must set up two-step verification before using the portal (`required`), must
 * sign in again with their passkey (`passkey_sign_in`), has a second step (`enrolled`) or may add one
 * (`optional`): "pending" while the session loads. The server enforces the same rule.
 */
export function useTwoFactorPolicy(): {
  status: TTwoFactorStatus;
  /** The role requires it (so the last second step cannot be removed). */
  requiredForRole: boolean;
} {
  const { data: session } = useSession();
  const secondStep = secondStepOf(session);
  if (!secondStep) return { status: "pending", requiredForRole: false };
  return { status: secondStep.status, requiredForRole: secondStep.requiredForRole };
}
