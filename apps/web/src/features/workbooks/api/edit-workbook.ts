import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZWorkbookMutationResponseSchema } from "@portal/contracts";
import type { TWorkbookInput } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { workbooksQueryKey } from "@/lib/get-workbooks";

export const UPDATE_WORKBOOK_FAILED = "Failed to update workbook.";

/**
 * PUT /api/admin/editworkbook/{id}: the same handler as the spec's `/workbooks/editworkbook/{id}`
 * (DEVIATION D15), under /api/admin like every other back-office call.
 */
export function editWorkbook({ id, ...input }: TWorkbookInput & { id: number }) {
  return apiRequest(`/api/admin/editworkbook/${id}`, {
    method: "PUT",
    body: input,
    schema: ZWorkbookMutationResponseSchema,
    fallbackError: UPDATE_WORKBOOK_FAILED,
  });
}

export function useEditWorkbook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editWorkbook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workbooksQueryKey }),
  });
}
