/**
 * Whose delegates a screen shows: the signed-in client's own (/profile) or a client's in the back office (Edit
 * Client). The two differ only in their paths and cache keys; the list, the form and Revoke are written once.
 */
export type TDelegatesOwner = { kind: "me" } | { kind: "client"; cId: number };

export const MY_DELEGATES: TDelegatesOwner = { kind: "me" };

/** `GET|POST` the owner's delegates; with `id`, one of them (`PATCH|DELETE`). */
export function delegatesPath(owner: TDelegatesOwner, id?: number): string {
  const list = owner.kind === "me" ? "/api/me/delegates" : `/api/admin/clients/${owner.cId}/delegates`;
  return id === undefined ? list : `${list}/${id}`;
}

/** The cached list of the owner's delegates, which every change refreshes. */
export function delegatesQueryKey(owner: TDelegatesOwner) {
  return owner.kind === "me"
    ? (["me", "delegates"] as const)
    : (["admin", "client-delegates", owner.cId] as const);
}

/**
 * Only a client has delegates (the API refuses everyone else, and audits each refusal), so the profile asks
 * only for a client. The role field may hold a comma-separated list (as `isAdmin` reads it).
 */
export function mayHaveDelegates(role: string | null | undefined): boolean {
  if (typeof role !== "string") return false;
  return role
    .split(",")
    .map((r) => r.trim())
    .includes("client");
}
