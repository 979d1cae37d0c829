import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";

import { ZAuditEntrySchema, ZErrorResponseSchema } from "@portal/contracts";
import type { TAuditEntry } from "@portal/contracts";

import { toRequestError } from "@/lib/errors";

import { apiParamsFor, cursorsFromLink } from "../utils/audit-filters";
import type { TAuditCursor, TAuditFilters } from "../utils/audit-filters";

export const LOAD_AUDIT_FAILED = "Failed to load the audit log.";

/** One page of the audit log, and the cursors of the pages around it (keyset paging, DEVIATIONS D50). */
export type TAuditPage = {
  rows: TAuditEntry[];
  /** Matching entries, counted up to 10,000 (`capped`: more than that). */
  total: number;
  capped: boolean;
  older: number | null;
  newer: number | null;
};

export const auditQueryKey = ["admin", "audit"] as const;

/** GET /api/admin/audit: newest first; the total and the neighbouring pages come in the headers. */
export async function getAudit(
  filters: TAuditFilters,
  cursor: TAuditCursor,
  signal?: AbortSignal,
): Promise<TAuditPage> {
  let response: Response;
  try {
    response = await fetch(`/api/admin/audit?${apiParamsFor(filters, cursor).toString()}`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      signal,
    });
  } catch {
    throw toRequestError({}, "The portal could not be reached. Check your connection and try again.");
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ZErrorResponseSchema.safeParse(payload);
    throw toRequestError({ status: response.status, error: parsed.data?.error }, LOAD_AUDIT_FAILED);
  }
  const parsed = z.array(ZAuditEntrySchema).safeParse(payload);
  if (!parsed.success) throw toRequestError({}, LOAD_AUDIT_FAILED);
  const total = Number(response.headers.get("X-Total-Count"));
  return {
    rows: parsed.data,
    total: Number.isSafeInteger(total) && total >= 0 ? total : parsed.data.length,
    capped: response.headers.get("X-Total-Count-Capped") === "true",
    ...cursorsFromLink(response.headers.get("Link")),
  };
}

export const auditQueryOptions = (filters: TAuditFilters, cursor: TAuditCursor) =>
  queryOptions({
    queryKey: [...auditQueryKey, "list", filters, cursor ?? null],
    queryFn: ({ signal }) => getAudit(filters, cursor, signal),
  });

/** Keeps the previous page on screen while the next one (or a new filter) loads. */
export function useAudit(filters: TAuditFilters, cursor: TAuditCursor) {
  return useQuery({ ...auditQueryOptions(filters, cursor), placeholderData: keepPreviousData });
}
