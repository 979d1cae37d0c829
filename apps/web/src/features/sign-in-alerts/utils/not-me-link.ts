import { NOT_ME_LINK_INCOMPLETE, NOT_ME_TOKEN_PATTERN } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

/** The /not-me page's words (issue 24). */
export const NOT_ME_TEXT = {
  heading: "Not you?",
  intro: "Someone signed in to your account from a browser it had not used before.",
  what: "We will sign this account out everywhere and email you a link to choose a new password.",
  ifYou: "If it was you, close this page: nothing changes until you press the button.",
  button: "Sign out everywhere and reset my password",
  pending: "Signing out everywhere...",
  done: "Done. Every session of this account has ended. Check your email for a link to choose a new password.",
} as const;

/** The link's token from the page's query string, or why there is none to use. */
export function notMeTokenOf(search: string): { token: string } | { problem: string } {
  const token = new URLSearchParams(search).get("token")?.trim() ?? "";
  return NOT_ME_TOKEN_PATTERN.test(token) ? { token } : { problem: NOT_ME_LINK_INCOMPLETE };
}

/**
 * A refusal that means this link can no longer be used (used, expired, unknown, cut short): pressing the button
 * again cannot help, so the page offers the sign-in page (with Reset Password) instead.
 */
export function isDeadLink(error: unknown): boolean {
  return (
    error instanceof AppRequestError &&
    (error.code === "NOT_ME_LINK_INVALID" || error.code === "INVALID_INPUT")
  );
}
