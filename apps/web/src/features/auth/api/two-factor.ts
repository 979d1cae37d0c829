import { useQuery } from "@tanstack/react-query";

import { requiresTwoFactor } from "@portal/contracts";
import type { ApiErrorCode } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { apiErrorCode, toRequestError } from "@/lib/errors";
import type { TErrorLike } from "@/lib/errors";
import { useSession } from "@/lib/session";

import { getConfig } from "./get-config";

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

export const configQueryOptions = { queryKey: ["config"], queryFn: () => getConfig(), staleTime: Infinity };

/**
 * Whether the signed-in person must set up two-step verification before using the portal (their role is in
 * MFA_REQUIRED_ROLES and they have not): "pending" while the settings load. The server enforces the same rule.
 */
export function useTwoFactorPolicy(): {
  status: "pending" | "required" | "optional" | "enrolled";
  /** The role requires it (so it cannot be turned off). */
  requiredForRole: boolean;
} {
  const { data: session } = useSession();
  const config = useQuery(configQueryOptions);
  const requiredForRole = requiresTwoFactor(session?.user.role, config.data?.mfaRequiredRoles ?? []);
  if (session?.user.twoFactorEnabled) return { status: "enrolled", requiredForRole };
  if (config.isPending) return { status: "pending", requiredForRole };
  return { status: requiredForRole ? "required" : "optional", requiredForRole };
}
