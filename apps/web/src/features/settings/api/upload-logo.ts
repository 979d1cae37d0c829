import { useMutation } from "@tanstack/react-query";

import { LOGO_MAX_BYTES, ZBrandingResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { AppRequestError } from "@/lib/errors";

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
  return apiRequest("/api/admin/settings/logo", {
    method: "PUT",
    body: file,
    headers: { "Content-Type": "application/octet-stream" },
    schema: ZBrandingResponseSchema,
    fallbackError: UPLOAD_LOGO_FAILED,
  });
}

export function useUploadLogo() {
  const saved = useBrandingSaved();
  return useMutation({ mutationFn: uploadLogo, onSuccess: saved });
}
