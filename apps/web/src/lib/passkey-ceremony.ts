import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnAbortService,
  WebAuthnError,
} from "@simplewebauthn/browser";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";

import type { ApiErrorCode } from "@portal/contracts";

import { authClient } from "./auth-client";
import { apiErrorCode, AppRequestError, toRequestError } from "./errors";
import type { TErrorLike } from "./errors";

/**
 * Passkeys (issue 24) against Better Auth's passkey plugin under /api/auth: signing in with one (/login,
 * /admin-login, by button or from the email field's autofill) and what both ceremonies' refusals say (adding one
 * is `passkey-registration.ts`). Shared by the auth and passkeys features; the sign-in page loads it on demand,
 * so the WebAuthn library is not part of its first load (decision 004).
 */

export const NO_WEBAUTHN = "This browser cannot use passkeys.";
export const ADD_CANCELLED =
  "The passkey was not added: the browser's prompt was closed or its time ran out. You can try again.";
export const ADD_FAILED = "The passkey could not be added. Please try again.";
export const ALREADY_ADDED =
  "This device or security key already holds a passkey for your account: it is in your list.";
export const SIGN_IN_CANCELLED =
  "Passkey sign-in was cancelled: the browser's prompt was closed or its time ran out.";
export const SIGN_IN_FAILED = "Signing in with a passkey did not work. Please try again.";
export const UNKNOWN_PASSKEY =
  "This passkey is not (or no longer) registered with the portal. Sign in with your password or another passkey.";
export const NO_USER_VERIFICATION =
  "This passkey cannot confirm it is you (no PIN, fingerprint or face). Use a passkey that can.";

type TCeremony = "add" | "sign-in";

/** The server's refusals whose own words are too terse for the person (the plugin's), in ours. */
const SERVER_TEXTS: Partial<Record<ApiErrorCode, Record<TCeremony, string>>> = {
  PASSKEY_NOT_FOUND: { add: ADD_FAILED, "sign-in": UNKNOWN_PASSKEY },
  CHALLENGE_NOT_FOUND: {
    add: "Adding the passkey took too long. Please try again.",
    "sign-in": "The sign-in took too long. Please choose your passkey again.",
  },
  AUTHENTICATION_FAILED: { add: ADD_FAILED, "sign-in": SIGN_IN_FAILED },
  FAILED_TO_VERIFY_REGISTRATION: { add: ADD_FAILED, "sign-in": SIGN_IN_FAILED },
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: { add: ADD_FAILED, "sign-in": SIGN_IN_FAILED },
  UNABLE_TO_CREATE_SESSION: { add: ADD_FAILED, "sign-in": SIGN_IN_FAILED },
};

/**
 * A refusal of the server as the error to show: ours for the plugin's terse codes, else the server's message
 * (PASSKEY_NOT_VERIFIED, LAST_SECOND_STEP, TOO_MANY_FAILED_ATTEMPTS, PASSKEY_SIGN_IN_REQUIRED say it well).
 */
export function passkeyRefusal(error: TErrorLike, ceremony: TCeremony): AppRequestError {
  const code = apiErrorCode(error.code);
  const ours = code ? SERVER_TEXTS[code]?.[ceremony] : undefined;
  return toRequestError(
    ours ? { ...error, message: ours } : error,
    ceremony === "add" ? ADD_FAILED : SIGN_IN_FAILED,
  );
}

/** The ceremony was ended by a newer one (the button over the autofill) or by leaving the screen: nothing to show. */
export class PasskeyCeremonyAborted extends Error {
  constructor() {
    super("The passkey ceremony was replaced by another.");
    this.name = "PasskeyCeremonyAborted";
  }
}

/** What the browser's WebAuthn call threw, in words (or as an abort, which shows nothing). */
export function browserRefusal(error: unknown, ceremony: TCeremony): Error {
  const failed = ceremony === "add" ? ADD_FAILED : SIGN_IN_FAILED;
  if (!(error instanceof Error)) return new AppRequestError(failed);
  if (error.name === "AbortError") return new PasskeyCeremonyAborted();
  if (!(error instanceof WebAuthnError)) return new AppRequestError(failed);
  switch (error.code) {
    case "ERROR_CEREMONY_ABORTED":
      return new PasskeyCeremonyAborted();
    case "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY":
      // NotAllowedError: the person closed the prompt, or it timed out (browsers do not say which).
      return new AppRequestError(ceremony === "add" ? ADD_CANCELLED : SIGN_IN_CANCELLED);
    case "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED":
      return new AppRequestError(ALREADY_ADDED);
    case "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT":
      return new AppRequestError(NO_USER_VERIFICATION);
    case "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT":
      return new AppRequestError("This security key cannot hold a passkey. Use another one, or this device.");
    case "ERROR_INVALID_DOMAIN":
    case "ERROR_INVALID_RP_ID":
      return new AppRequestError("Passkeys do not work at this address of the portal. Ask your advisor.");
    default:
      return new AppRequestError(failed);
  }
}

/** Whether this browser can use passkeys at all (WebAuthn). */
/** Browsers refuse passkeys for a site opened by an IP address (WebAuthn needs a domain name, localhost included). */
export const NO_PASSKEYS_AT_IP =
  "Passkeys work only when the portal is opened by its name (such as localhost), not by an IP address.";
const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|\[[\da-f:.]+\])$/i;

/** Why passkeys cannot be used here (the browser, or the page's address), or null when they can. */
export function webAuthnProblem(): string | null {
  if (!browserSupportsWebAuthn()) return NO_WEBAUTHN;
  if (IP_ADDRESS.test(globalThis.location?.hostname ?? "")) return NO_PASSKEYS_AT_IP;
  return null;
}

export function webAuthnAvailable(): boolean {
  return webAuthnProblem() === null;
}

export function requireWebAuthn() {
  const problem = webAuthnProblem();
  if (problem) throw new AppRequestError(problem);
}

/**
 * The first half of a passkey sign-in: the server's challenge, then the browser's prompt. With `autofill` the
 * prompt is the email field's suggestions (conditional mediation): it waits until the person picks a passkey
 * there, or until a newer ceremony replaces it (`PasskeyCeremonyAborted`).
 */
export async function requestPasskey({
  autofill,
}: {
  autofill: boolean;
}): Promise<AuthenticationResponseJSON> {
  requireWebAuthn();
  const options = await authClient.$fetch<PublicKeyCredentialRequestOptionsJSON>(
    "/passkey/generate-authenticate-options",
    { method: "GET" },
  );
  if (options.error) throw passkeyRefusal(options.error, "sign-in");
  try {
    return await startAuthentication({ optionsJSON: options.data, useBrowserAutofill: autofill });
  } catch (error) {
    throw browserRefusal(error, "sign-in");
  }
}

/** The second half: the server checks the passkey's answer and signs the person in (the session cookie). */
export async function verifyPasskey(response: AuthenticationResponseJSON): Promise<void> {
  const verified = await authClient.$fetch("/passkey/verify-authentication", {
    method: "POST",
    body: { response },
  });
  if (verified.error) throw passkeyRefusal(verified.error, "sign-in");
}

/** Whether the browser offers passkeys among the email field's suggestions (conditional mediation). */
export function passkeyAutofillAvailable(): Promise<boolean> {
  return browserSupportsWebAuthnAutofill().catch(() => false);
}

/** Ends a ceremony still waiting (the autofill's, when the sign-in form goes away). */
export function cancelPasskeyCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}
