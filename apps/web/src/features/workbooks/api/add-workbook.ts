import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";

import { ZWorkbookInputSchema, ZWorkbookMutationResponseSchema } from "@portal/contracts";
import type { TWorkbookInput } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { workbooksQueryKey } from "@/lib/get-workbooks";

export const ADD_WORKBOOK_FAILED = "Failed to add workbook.";

/** Workbook Name and Team Name, with the server's rules (Sigma URL name, both required). */
export const ZWorkbookFormSchema = ZWorkbookInputSchema;
export type TWorkbookFormInput = z.input<typeof ZWorkbookFormSchema>;

/** POST /api/admin/addworkbook. */
export function addWorkbook(input: TWorkbookInput) {
  return apiRequest("/api/admin/addworkbook", {
    method: "POST",
    body: input,
    schema: ZWorkbookMutationResponseSchema,
    fallbackError: ADD_WORKBOOK_FAILED,
  });
}

export function useAddWorkbook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addWorkbook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workbooksQueryKey }),
  });
}
