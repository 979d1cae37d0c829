import { afterEach, describe, expect, it, vi } from "vitest";

import { AppRequestError } from "@/lib/errors";

import { exportAuditCsv } from "../api/export-audit";
import type { TExportProgress } from "../api/export-audit";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A CSV answer that arrives in the given chunks, as a large export streams. */
function streamed(chunks: string[], headers: Record<string, string>) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const fetchMock = vi.fn(async () => new Response(body, { status: 200, headers }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

describe("exportAuditCsv", () => {
  it("asks for the filtered CSV and reports rows and bytes of the total as the chunks arrive", async () => {
    const fetchMock = streamed(["id,action\n1,a", "\n2,b\n", "3,c\n"], {
      "Content-Type": "text/csv",
      "X-Total-Count": "3",
      "Content-Disposition": 'attachment; filename="audit-log-2026-11-25.csv"',
    });
    const seen: TExportProgress[] = [];
    const result = await exportAuditCsv({ action: "client.updated" }, (p) => seen.push(p));
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/admin/audit.csv?action=client.updated",
      expect.objectContaining({ credentials: "same-origin" }),
    );
    expect(seen.map((p) => [p.rows, p.total])).toEqual([
      [0, 3],
      [0, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(seen.at(-1)!.bytes).toBe("id,action\n1,a\n2,b\n3,c\n".length);
    expect(result.name).toBe("audit-log-2026-11-25.csv");
    expect(result.rows).toBe(3);
    expect(await result.file.text()).toBe("id,action\n1,a\n2,b\n3,c\n");
  });

  it("turns the API's refusal into its readable message", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: "to must be a date.", code: "INVALID_INPUT" }), {
            status: 400,
            headers: { "Content-Type": "application/json" },
          }),
      ),
    );
    const failure = exportAuditCsv({ to: "2026-01-01" }, () => undefined);
    await expect(failure).rejects.toBeInstanceOf(AppRequestError);
    await expect(failure).rejects.toThrow("to must be a date.");
  });
});
