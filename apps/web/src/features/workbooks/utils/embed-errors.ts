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

/**
 * The portal's own failure codes, for frames that show nothing usable without saying why: no
 * `workbook:loaded` in time, a page that never spoke, a session that ended unrenewed. Never sent by Sigma.
 */
export const FRAME_TIMEOUT = "TIMEOUT";
export const FRAME_SILENT = "SILENT";
export const SESSION_ENDED = "SESSION_ENDED";

const CONTACT = "If it keeps happening, please contact your advisor.";

/**
 * What the person reads when the analytics frame reports `workbook:error`, or shows nothing usable. The
 * codes are the nine Sigma documents for `workbook:error` ("Common embed error codes and messages"), and
 * the portal's own above.
 */
export function frameFailureText(failure: TFrameFailure): { title: string; detail: string } {
  switch (failure.code) {
    case "EINVAL":
      // An expired, used or malformed link.
      return {
        title: "This workbook link is no longer valid.",
        detail: "Secure workbook links work once and for a limited time. Try again to open a new one.",
      };
    case "EACCES":
      return {
        title: "You don't have access to this workbook.",
        detail: "If you think you should, please contact your advisor.",
      };
    case "ENOENT":
      // Sigma: the workbook is not found, or the embed user is deactivated; the frame cannot tell which.
      return {
        title: "This workbook is not available.",
        detail:
          "It may have been moved or removed, or your analytics access may have been turned off. Please contact your advisor.",
      };
    case "EPERM":
      return {
        title: "Your analytics access is not active.",
        detail: "Please contact your advisor to have it set up.",
      };
    case "EEXIST":
      return {
        title: "Your analytics access could not be set up.",
        detail: "Please contact your advisor.",
      };
    case "ESTALE":
      return {
        title: "This workbook has changed.",
        detail: `A page or element of it was removed or archived. Try again to open it as it is now. ${CONTACT}`,
      };
    case "ETIMEDOUT":
      return {
        title: "The workbook's data took too long to load.",
        detail: `The data service is busy. Please try again in a moment. ${CONTACT}`,
      };
    case "NETWORK":
      return {
        title: "The analytics service could not be reached.",
        detail: `Check your connection and try again; a firewall or browser extension may be blocking it. ${CONTACT}`,
      };
    case FRAME_SILENT:
      // The frame loaded a page that never reported in: the browser's error page (unreachable), or one of
      // the analytics service's pages without a code (no permission, session expired).
      return {
        title: "The analytics service did not open this workbook.",
        detail: `It could not be reached, or it refused to show the workbook to you. Check your connection and try again. ${CONTACT}`,
      };
    case FRAME_TIMEOUT:
      return {
        title: "The workbook is taking too long to load.",
        detail: "The analytics service did not respond in time. Please try again in a moment.",
      };
    case SESSION_ENDED:
      return {
        title: "Your workbook session has ended.",
        detail:
          "For your security, workbook sessions end after a while. Try again to continue where you left off.",
      };
    case "UNKNOWN":
      return {
        title: "This workbook could not be shown.",
        detail: `The analytics service reported a problem. Try again. ${CONTACT}`,
      };
    default:
      // Not one of Sigma's codes (an event of a newer version, say): its own message, if any.
      return {
        title: "This workbook could not be shown.",
        detail: failure.message || "The analytics service reported a problem.",
      };
  }
}
