import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZImportJobSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { importQueryKey } from "./get-import";

/** POST /api/admin/imports/{id}/start: the rows that passed the preview are imported in the background. */
export function startImport(jobId: string) {
  return apiRequest(`/api/admin/imports/${encodeURIComponent(jobId)}/start`, {
    method: "POST",
    schema: ZImportJobSchema,
    fallbackError: "The import could not be started.",
  });
}

export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startImport,
    onSuccess: (job) => queryClient.setQueryData(importQueryKey(job.id), job),
  });
}
