import { useRef, useState } from "react";

import { apiDownload } from "@/lib/api-client";
import { getErrorMessage } from "@/lib/errors";

import { apiParamsFor, attachmentName, countLines } from "../utils/audit-filters";
import type { TAuditFilters } from "../utils/audit-filters";

export const EXPORT_AUDIT_FAILED = "The audit log could not be exported.";

export type TExportProgress = { rows: number; bytes: number; total: number | null };

/**
 * GET /api/admin/audit.csv: every entry the filters match. The body is read as it streams, so the screen
 * can show how many rows (of the total the server sends first) have arrived; the file is handed to the
 * browser's download once complete.
 */
export async function exportAuditCsv(
  filters: TAuditFilters,
  onProgress: (progress: TExportProgress) => void,
  signal?: AbortSignal,
): Promise<{ file: Blob; name: string; rows: number }> {
  const response = await apiDownload(`/api/admin/audit.csv?${apiParamsFor(filters).toString()}`, {
    accept: "text/csv",
    fallbackError: EXPORT_AUDIT_FAILED,
    signal,
  });
  const totalHeader = Number(response.headers.get("X-Total-Count"));
  const total = Number.isSafeInteger(totalHeader) && totalHeader >= 0 ? totalHeader : null;
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let lines = 0;
  let bytes = 0;
  onProgress({ rows: 0, bytes: 0, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    lines += countLines(value);
    // The first line is the header; a quoted cell may hold a line break, so never show more than the total.
    const rows = Math.max(0, lines - 1);
    onProgress({ rows: total === null ? rows : Math.min(rows, total), bytes, total });
  }
  // What arrived (the total was counted as the export started; an entry written in between may be in it too).
  const rows = Math.max(0, lines - 1);
  return {
    file: new Blob(chunks, { type: "text/csv" }),
    name: attachmentName(response.headers.get("Content-Disposition"), "audit-log.csv"),
    rows,
  };
}

/** Hands a finished file to the browser as a download. */
function download(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export type TExportState =
  | { status: "idle" }
  | { status: "running"; progress: TExportProgress }
  | { status: "done"; rows: number }
  | { status: "cancelled" }
  | { status: "error"; message: string };

/** Export CSV with its progress, and Cancel. */
export function useAuditExport() {
  const [state, setState] = useState<TExportState>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);

  const start = (filters: TAuditFilters) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ status: "running", progress: { rows: 0, bytes: 0, total: null } });
    exportAuditCsv(filters, (progress) => setState({ status: "running", progress }), abort.signal).then(
      ({ file, name, rows }) => {
        download(file, name);
        setState({ status: "done", rows });
      },
      (error: unknown) => {
        if (abort.signal.aborted) setState({ status: "cancelled" });
        else setState({ status: "error", message: getErrorMessage(error, EXPORT_AUDIT_FAILED) });
      },
    );
  };
  const cancel = () => controller.current?.abort();
  return { state, start, cancel };
}
