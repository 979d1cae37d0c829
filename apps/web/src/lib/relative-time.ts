/** A moment with its date and time, in the person's own locale and time zone. */
export const DATE_AND_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/**
 * How long ago something happened that is noted to the minute (a session's last activity, a delegate's last
 * view): "just now", "5 minutes ago", "3 hours ago", else the date and time.
 */
export function sinceText(iso: string, now = Date.now()): string {
  const minutes = Math.round((now - Date.parse(iso)) / 60_000);
  if (minutes < 2) return "just now";
  if (minutes < 60) return RELATIVE.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 24) return RELATIVE.format(-hours, "hour");
  return DATE_AND_TIME.format(new Date(iso));
}
