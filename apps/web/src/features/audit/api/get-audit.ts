import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";

import { ZAuditEntrySchema } from "@portal/contracts";
import type { TAuditEntry } from "@portal/contracts";

import { apiRequestWithHeaders } from "@/lib/api-client";

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
  const { data: rows, headers } = await apiRequestWithHeaders(
    `/api/admin/audit?${apiParamsFor(filters, cursor).toString()}`,
    { schema: z.array(ZAuditEntrySchema), fallbackError: LOAD_AUDIT_FAILED, signal },
  );
  const total = Number(headers.get("X-Total-Count"));
  return {
    rows,
    total: Number.isSafeInteger(total) && total >= 0 ? total : rows.length,
    capped: headers.get("X-Total-Count-Capped") === "true",
    ...cursorsFromLink(headers.get("Link")),
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
