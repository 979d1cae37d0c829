import { useMutation } from "@tanstack/react-query";

import { ZProvisionAndEmbedResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const PREVIEW_FAILED = "The workbook could not be opened.";

/**
 * POST /api/sigma/provision-and-embed as the admin: a fresh one-time embed URL of any catalogued workbook
 * (an admin's identity is the whole catalogue, with no client), audited as `embed.issued` like every URL.
 */
export function previewWorkbook(workbookName: string) {
  return apiRequest("/api/sigma/provision-and-embed", {
    method: "POST",
    body: { workbookId: workbookName },
    schema: ZProvisionAndEmbedResponseSchema,
    fallbackError: PREVIEW_FAILED,
  });
}

export function usePreviewWorkbook() {
  return useMutation({ mutationFn: previewWorkbook });
}
