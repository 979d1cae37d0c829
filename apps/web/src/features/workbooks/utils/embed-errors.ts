/** Longest server text shown in 'Backend error {status}: {body}'; the rest is cut (an HTML error page, say). */
const MAX_BODY_LENGTH = 300;

/**
 * Spec section 8: 'Backend error {status}: {body}'. The portal API answers errors as `{ error }` JSON, so
 * the body shown is that message; any other text is shown as it came (whitespace collapsed, shortened).
 */
export function backendErrorMessage(status: number, body: string): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "error" in parsed &&
      typeof parsed.error === "string"
    ) {
      text = parsed.error;
    }
  } catch {
    // not JSON: show the text itself
  }
  text = text.replace(/\s+/g, " ").trim();
  if (text.length > MAX_BODY_LENGTH) text = `${text.slice(0, MAX_BODY_LENGTH - 1)}…`;
  return `Backend error ${status}: ${text}`;
}

export type TFrameFailure = { code: string; message: string };

/** What the person reads when the analytics frame reports `workbook:error` (or never reports in). */
export function frameFailureText(failure: TFrameFailure): { title: string; detail: string } {
  switch (failure.code) {
    case "EINVAL":
      return {
        title: "This workbook link has expired.",
        detail: "Secure workbook links work once and only for a few minutes. Try again to open a new one.",
      };
    case "EACCES":
      return {
        title: "You don't have access to this workbook.",
        detail: "If you think you should, please contact your advisor.",
      };
    case "ENOENT":
      return {
        title: "This workbook could not be found.",
        detail: "It may have been moved or removed from the analytics service. Please contact your advisor.",
      };
    case "EPERM":
      return {
        title: "Your analytics access is not active.",
        detail: "Please contact your advisor to have it restored.",
      };
    case "UNREACHABLE":
      return {
        title: "The analytics service could not be reached.",
        detail: "Check your connection and try again. If it keeps happening, please contact your advisor.",
      };
    case "TIMEOUT":
      return {
        title: "The workbook is taking too long to load.",
        detail: "The analytics service did not respond in time.",
      };
    default:
      return {
        title: "This workbook could not be shown.",
        detail: failure.message || "The analytics service reported a problem.",
      };
  }
}
