import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZImportJobSchema } from "@portal/contracts";
import type { TImportJob } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_IMPORT_FAILED = "Failed to load the import.";

export const importQueryKey = (jobId: string) => ["admin", "imports", jobId] as const;

/** GET /api/admin/imports/{id}: the import's preview, progress or final report. */
export function getImport(jobId: string, signal?: AbortSignal): Promise<TImportJob> {
  return apiRequest(`/api/admin/imports/${encodeURIComponent(jobId)}`, {
    schema: ZImportJobSchema,
    fallbackError: LOAD_IMPORT_FAILED,
    signal,
  });
}

export const importQueryOptions = (jobId: string) =>
  queryOptions({ queryKey: importQueryKey(jobId), queryFn: ({ signal }) => getImport(jobId, signal) });

/** While the import runs, its progress is fetched again every second. */
export function useImport(jobId: string) {
  return useQuery({
    ...importQueryOptions(jobId),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "queued" || status === "running" ? 1_000 : false;
    },
  });
}
