import { useMutation } from "@tanstack/react-query";

import { LOGO_MAX_BYTES, ZBrandingResponseSchema, ZErrorResponseSchema } from "@portal/contracts";

import { AppRequestError, toRequestError } from "@/lib/errors";

import { useBrandingSaved } from "./update-settings";

export const UPLOAD_LOGO_FAILED = "The logo could not be uploaded.";

/**
 * PUT /api/admin/settings/logo with the file itself as the body. The server decides by the content (PNG or SVG)
 * whatever the name or type; a file over 512 KB is refused here first, without sending it.
 */
export async function uploadLogo(file: File) {
  if (file.size > LOGO_MAX_BYTES) {
    const size =
      file.size >= 1024 * 1024
        ? `${(file.size / 1024 / 1024).toFixed(1)} MB`
        : `${Math.ceil(file.size / 1024)} KB`;
    throw new AppRequestError(
      `The logo file is ${size}; a logo may be at most 512 KB. Export it smaller or as SVG.`,
    );
  }
  let response: Response;
  try {
    response = await fetch("/api/admin/settings/logo", {
      method: "PUT",
      credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "application/octet-stream" },
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
      UPLOAD_LOGO_FAILED,
    );
  }
  const parsed = ZBrandingResponseSchema.safeParse(payload);
  if (!parsed.success) throw toRequestError({}, UPLOAD_LOGO_FAILED);
  return parsed.data;
}

export function useUploadLogo() {
  const saved = useBrandingSaved();
  return useMutation({ mutationFn: uploadLogo, onSuccess: saved });
}
