import type { TSession } from "@portal/contracts";

import { DATE_AND_TIME, sinceText } from "@/lib/relative-time";

export const SIGNED_IN = DATE_AND_TIME;

/** "Chrome 131 on Windows 10", as far as the browser told. */
export function deviceName(session: Pick<TSession, "browser" | "os">): string {
  if (session.browser && session.os) return `${session.browser} on ${session.os}`;
  return session.browser ?? session.os ?? "Unknown browser";
}

/** "just now", "5 minutes ago", "3 hours ago", else the date (activity is noted to the minute). */
export const lastActiveText = sinceText;
