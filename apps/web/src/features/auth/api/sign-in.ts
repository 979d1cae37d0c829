import type { ApiErrorCode, TSignIn } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { apiErrorCode, AppRequestError, TOO_MANY_REQUESTS_MESSAGE, toRequestError } from "@/lib/errors";
import { getSession } from "@/lib/get-session";
import type { TSession } from "@/lib/get-session";

/** What the password step leads to: a session, or the second step (two-step verification, decision 006). */
export type TSignInResult = { twoFactor: true } | { twoFactor: false; session: TSession | null };

/** Email + password sign-in; Better Auth sets the session cookie, or asks for the second step. */
export async function signInWithEmail({ email, password }: TSignIn): Promise<{ twoFactor: boolean }> {
  const { data, error } = await authClient.signIn.email({ email, password });
  if (error) throw toRequestError(error, "Sign-in failed. Please check your email and password.");
  return { twoFactor: !!data && "twoFactorRedirect" in data && data.twoFactorRedirect === true };
}

/** Signs in, then reads the new session (its role decides where the person goes); resolves with it. */
export async function signIn(input: TSignIn): Promise<TSignInResult> {
  const { twoFactor } = await signInWithEmail(input);
  if (twoFactor) return { twoFactor: true };
  return { twoFactor: false, session: await getSession() };
}

export type TSecondStepMethod = "totp" | "backup-code" | "email-code";

/** Why the second step failed, in words; `restart` when the person must enter their password again. */
const SECOND_STEP_ERRORS: Partial<Record<ApiErrorCode, { text: string; restart?: boolean }>> = {
  INVALID_CODE: { text: "That code is not right. Check your authenticator app and try again." },
  INVALID_BACKUP_CODE: { text: "That backup code is not valid or has already been used." },
  OTP_HAS_EXPIRED: { text: "That emailed code has expired or was used. Send a new code." },
  INVALID_TWO_FACTOR_COOKIE: {
    text: "This sign-in step has expired. Please sign in again.",
    restart: true,
  },
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: {
    text: "Too many wrong codes. Please sign in again.",
    restart: true,
  },
  ACCOUNT_TEMPORARILY_LOCKED: {
    text: "Too many wrong codes in a row: two-step sign-in is locked for 15 minutes. Please try again later.",
    restart: true,
  },
};

/** An error of the second step; `restart` means the pending sign-in is over. */
export class SecondStepError extends AppRequestError {
  readonly restart: boolean;
  constructor(message: string, restart: boolean, status?: number, code?: ApiErrorCode) {
    super(message, { status, code });
    this.restart = restart;
  }
}

/** Checks the code (or a backup code) of a pending sign-in; resolves with the new session. */
export async function verifySecondStep({
  method,
  code,
}: {
  method: TSecondStepMethod;
  code: string;
}): Promise<TSession | null> {
  const { error } =
    method === "totp"
      ? await authClient.twoFactor.verifyTotp({ code })
      : method === "email-code"
        ? await authClient.twoFactor.verifyOtp({ code })
        : await authClient.twoFactor.verifyBackupCode({ code });
  if (error) {
    const code = apiErrorCode(error.code);
    const known = code ? SECOND_STEP_ERRORS[code] : undefined;
    if (known) throw new SecondStepError(known.text, known.restart === true, error.status, code);
    if (error.status === 429) throw new SecondStepError(TOO_MANY_REQUESTS_MESSAGE, false, 429, code);
    throw toRequestError(error, "The code could not be checked. Please try again.");
  }
  return getSession();
}

/** Mails a six-digit code for the pending sign-in (where the firm allows codes by email, issue 24). */
export async function sendEmailCode(): Promise<void> {
  const { error } = await authClient.twoFactor.sendOtp();
  if (error) {
    if (error.status === 429) throw new SecondStepError(TOO_MANY_REQUESTS_MESSAGE, false, 429);
    throw toRequestError(error, "The code could not be sent. Please try again.");
  }
}
