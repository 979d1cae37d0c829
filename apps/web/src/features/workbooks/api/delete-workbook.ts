import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZMessageSchema } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { workbooksQueryKey } from "@/lib/get-workbooks";
import { removeFromCachedLists } from "@/lib/list-cache";
import { peopleQueryKey } from "@/lib/people-screens";

/** DELETE /api/admin/deleteworkbook/{id}. */
export function deleteWorkbook(id: number) {
  return apiRequest(`/api/admin/deleteworkbook/${id}`, {
    method: "DELETE",
    schema: ZMessageSchema,
    fallbackError: "The workbook could not be deleted.",
  });
}

export function useDeleteWorkbook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkbook,
    onSuccess: (_result, id) => {
      removeFromCachedLists<TWorkbook>(queryClient, workbooksQueryKey, (workbook) => workbook.id === id);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: workbooksQueryKey }),
        // Clients lose the workbook from their assignments.
        queryClient.invalidateQueries({ queryKey: peopleQueryKey("client") }),
      ]);
    },
  });
}
