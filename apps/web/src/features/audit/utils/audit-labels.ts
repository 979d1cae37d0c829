/** How outcomes read on the audit log screen (the API and the CSV keep the stored names). */
export const AUDIT_OUTCOME_LABELS: Record<string, string> = {
  success: "Success",
  failure: "Failure",
  denied: "Denied",
  rate_limited: "Rate limited",
};

/** Who did it: their email, else their account id, else the portal itself. */
export function actorText(entry: { actor_email: string | null; actor_user_id: string | null }): string {
  return entry.actor_email ?? entry.actor_user_id ?? "Portal";
}

/** What it was about: "client 42", "route GET /api/admin/clients", or nothing. */
export function targetText(entry: { target_type: string | null; target_id: string | null }): string {
  if (!entry.target_type && !entry.target_id) return "—";
  return [entry.target_type, entry.target_id].filter(Boolean).join(" ");
}

/** A JSON value for reading: indented, or "—" when there is none. */
export function jsonText(value: unknown): string {
  return value === null || value === undefined ? "—" : JSON.stringify(value, null, 2);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The top-level fields an entry changed, in the order they appear: a field only before (removed), only after
 * (added) or different in both. Null when before/after are not both objects (or absent) — nothing to compare.
 */
export function changedFields(
  before: unknown,
  after: unknown,
): { field: string; before: unknown; after: unknown }[] | null {
  if (!isRecord(before) || !isRecord(after)) return null;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

/** A field's value on one line: text as it is, anything else as JSON, absent as "—". */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}
