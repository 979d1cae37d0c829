import type { TSession } from "@portal/contracts";

export const SIGNED_IN = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "Chrome 131 on Windows 10", as far as the browser told. */
export function deviceName(session: Pick<TSession, "browser" | "os">): string {
  if (session.browser && session.os) return `${session.browser} on ${session.os}`;
  return session.browser ?? session.os ?? "Unknown browser";
}

/** "just now", "5 minutes ago", "3 hours ago", else the date (activity is noted to the minute). */
export function lastActiveText(iso: string, now = Date.now()): string {
  const minutes = Math.round((now - Date.parse(iso)) / 60_000);
  if (minutes < 2) return "just now";
  if (minutes < 60) return RELATIVE.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 24) return RELATIVE.format(-hours, "hour");
  return SIGNED_IN.format(new Date(iso));
}
