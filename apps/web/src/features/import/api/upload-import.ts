import { useMutation } from "@tanstack/react-query";

import { ZImportJobSchema } from "@portal/contracts";
import type { TImportJob, TPersonKind } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const UPLOAD_IMPORT_FAILED = "The file could not be uploaded.";

/**
 * POST /api/admin/imports?kind=…: the file itself is the body (text/csv). The answer is the import in
 * preview: the columns as mapped, each row's problems, nothing created yet.
 */
export function uploadImport({ kind, file }: { kind: TPersonKind; file: File }): Promise<TImportJob> {
  const query = new URLSearchParams({ kind, fileName: file.name });
  return apiRequest(`/api/admin/imports?${query.toString()}`, {
    method: "POST",
    body: file,
    headers: { "Content-Type": "text/csv" },
    schema: ZImportJobSchema,
    fallbackError: UPLOAD_IMPORT_FAILED,
  });
}

export function useUploadImport() {
  return useMutation({ mutationFn: uploadImport });
}
