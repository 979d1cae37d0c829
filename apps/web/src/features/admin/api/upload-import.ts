import { useMutation } from "@tanstack/react-query";

import { ZErrorResponseSchema, ZImportJobSchema } from "@portal/contracts";
import type { TImportJob, TImportKind } from "@portal/contracts";

import { toRequestError } from "@/lib/errors";

export const UPLOAD_IMPORT_FAILED = "The file could not be uploaded.";

/**
 * POST /api/admin/imports?kind=…: the file itself is the body (text/csv). The answer is the import in
 * preview: the columns as mapped, each row's problems, nothing created yet.
 */
export async function uploadImport({ kind, file }: { kind: TImportKind; file: File }): Promise<TImportJob> {
  const query = new URLSearchParams({ kind, fileName: file.name });
  let response: Response;
  try {
    response = await fetch(`/api/admin/imports?${query.toString()}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "text/csv" },
      body: file,
    });
  } catch {
    throw toRequestError({}, "The portal could not be reached. Check your connection and try again.");
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ZErrorResponseSchema.safeParse(payload);
    throw toRequestError(
      { status: response.status, error: parsed.data?.error, code: parsed.data?.code },
      UPLOAD_IMPORT_FAILED,
    );
  }
  const parsed = ZImportJobSchema.safeParse(payload);
  if (!parsed.success) throw toRequestError({}, UPLOAD_IMPORT_FAILED);
  return parsed.data;
}

export function useUploadImport() {
  return useMutation({ mutationFn: uploadImport });
}
