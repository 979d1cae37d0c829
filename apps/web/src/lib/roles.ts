/**
 * Admin means the Better Auth admin plugin role "admin" (the role field may hold a comma-separated list).
 * Anything missing or unreadable counts as non-admin (spec section 4).
 */
export function isAdmin(user: { role?: string | null | undefined } | null | undefined): boolean {
  const role = user?.role;
  if (typeof role !== "string") return false;
  return role
    .split(",")
    .map((r) => r.trim())
    .includes("admin");
}
