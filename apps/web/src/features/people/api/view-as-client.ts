import { useMutation } from "@tanstack/react-query";

import { ZProvisionAndEmbedResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const VIEW_AS_FAILED = "The client's workbook could not be opened.";

/**
 * POST /api/admin/viewasclient/{c_id}: a one-time embed URL minted with the client's own identity (their
 * workbooks and data), read-only, audited as `embed.view_as`.
 */
export function viewAsClient({ cId, workbookName }: { cId: number; workbookName: string }) {
  return apiRequest(`/api/admin/viewasclient/${cId}`, {
    method: "POST",
    body: { workbookId: workbookName },
    schema: ZProvisionAndEmbedResponseSchema,
    fallbackError: VIEW_AS_FAILED,
  });
}

export function useViewAsClient() {
  return useMutation({ mutationFn: viewAsClient });
}
