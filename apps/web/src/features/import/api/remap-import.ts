import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZImportJobSchema } from "@portal/contracts";
import type { TImportMapping } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { importQueryKey } from "./get-import";

/** PUT /api/admin/imports/{id}/mapping: another column for a field; every row is checked again. */
export function remapImport({ jobId, mapping }: { jobId: string; mapping: TImportMapping }) {
  return apiRequest(`/api/admin/imports/${encodeURIComponent(jobId)}/mapping`, {
    method: "PUT",
    body: { mapping },
    schema: ZImportJobSchema,
    fallbackError: "The columns could not be changed.",
  });
}

export function useRemapImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: remapImport,
    onSuccess: (job) => queryClient.setQueryData(importQueryKey(job.id), job),
  });
}
