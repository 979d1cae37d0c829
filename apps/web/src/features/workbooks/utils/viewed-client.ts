import type { TViewableClient } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

/** The URL's `?client=`: whose workbooks `/` and `/workbooks/:workbookId` show (issue 23, decision 020). */
export const CLIENT_PARAM = "client";

/** `?client=` as read: absent (the person's own), a client's number, or something that is no client's number. */
export type TClientParam = { kind: "own" } | { kind: "client"; id: number } | { kind: "invalid" };

/**
 * Whose workbooks the page shows. `clientId` null: the person's own (no `client` in the requests); `pending`:
 * the list of clients is needed to choose (a delegate without workbooks of their own opens the first client);
 * `invalid`: the address names no client the person could view.
 */
export type TViewedClient =
  { status: "ready"; clientId: number | null } | { status: "pending" } | { status: "invalid" };

/** The API's own rule for `?client=` (`ZViewClientQuerySchema`): 1 to 2,147,483,647, digits only. */
const CLIENT_NUMBER = /^[1-9][0-9]{0,9}$/;
const MAX_CLIENT_NUMBER = 2_147_483_647;

export function parseClientParam(value: string | null): TClientParam {
  if (value === null) return { kind: "own" };
  if (!CLIENT_NUMBER.test(value)) return { kind: "invalid" };
  const id = Number(value);
  return id > MAX_CLIENT_NUMBER ? { kind: "invalid" } : { kind: "client", id };
}

/**
 * Someone whose only role is `delegate` has no workbooks of their own: they only view the clients who invited
 * them. The role field may hold a comma-separated list (as `isAdmin` reads it).
 */
export function ownsNoWorkbooks(role: string | null | undefined): boolean {
  if (typeof role !== "string") return false;
  const roles = role.split(",").map((r) => r.trim());
  return roles.includes("delegate") && !roles.some((r) => r === "client" || r === "employee");
}

/**
 * Whose workbooks to show: the client in the URL; without one, the person's own, or for someone with no own
 * workbooks the first client of the list (`clients` undefined: not loaded yet; null: it could not be loaded,
 * so they see what their own request answers).
 */
export function resolveViewedClient({
  param,
  role,
  clients,
}: {
  param: TClientParam;
  role: string | null | undefined;
  clients: readonly TViewableClient[] | null | undefined;
}): TViewedClient {
  if (param.kind === "invalid") return { status: "invalid" };
  if (param.kind === "client") return { status: "ready", clientId: param.id };
  if (!ownsNoWorkbooks(role)) return { status: "ready", clientId: null };
  if (clients === undefined) return { status: "pending" };
  const first = clients?.find((client) => !client.self);
  return { status: "ready", clientId: first?.c_id ?? null };
}

/** `?client=12` for a client's page, nothing for the person's own. */
export function clientSearch(clientId: number | null): string {
  return clientId === null ? "" : `?${new URLSearchParams({ [CLIENT_PARAM]: String(clientId) })}`;
}

/** A workbook's page for the client being viewed, as the sidebar links to it. */
export function workbookPath(workbookName: string, clientId: number | null): string {
  return `/workbooks/${encodeURIComponent(workbookName)}${clientSearch(clientId)}`;
}

/**
 * The entry of the list the page shows: the client in the URL, or with no client the person's own. Undefined
 * when the list does not have it.
 */
export function viewedEntry(
  clients: readonly TViewableClient[],
  viewed: TViewedClient,
): TViewableClient | undefined {
  if (viewed.status !== "ready") return undefined;
  if (viewed.clientId === null) return clients.find((client) => client.self);
  return clients.find((client) => client.c_id === viewed.clientId);
}

/** Where choosing `client` in the switcher leads: its first workbook (one's own: no `client` in the URL). */
export function switchTarget(client: TViewableClient): string {
  return `/${client.self ? "" : clientSearch(client.c_id)}`;
}

/** The API's answer for a client the person may not view (any more): 404, never 403 (decision 020). */
export function isNotFound(error: unknown): boolean {
  return error instanceof AppRequestError && error.status === 404;
}
