import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

import { PORTAL_UNREACHABLE, apiDownload, apiRequestWithHeaders } from "../api-client";
import { apiListRequest } from "../api-list";
import { AppRequestError } from "../errors";

function answer(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  const fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify(body), {
        status: init.status ?? 200,
        headers: { "Content-Type": "application/json", ...init.headers },
      }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

const ZRow = z.object({ id: z.number() });

describe("apiListRequest", () => {
  it("appends the paging to a path with its own query and reads the total from X-Total-Count", async () => {
    const fetchMock = answer([{ id: 1 }], { headers: { "X-Total-Count": "51" } });
    const page = await apiListRequest(
      "/api/admin/sync?status=failed",
      { offset: 50 },
      {
        item: ZRow,
        fallbackError: "Failed.",
      },
    );
    expect(fetchMock).toHaveBeenCalledWith("/api/admin/sync?status=failed&offset=50", expect.anything());
    expect(page).toEqual({ rows: [{ id: 1 }], total: 51, limit: 50, offset: 50 });
  });

  it("keeps the server's message and code of a refusal", async () => {
    answer({ error: "Only admins can do this.", code: "FORBIDDEN" }, { status: 403 });
    const error = await apiListRequest(
      "/api/admin/clients",
      {},
      { item: ZRow, fallbackError: "Failed." },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppRequestError);
    expect(error).toMatchObject({ message: "Only admins can do this.", status: 403, code: "FORBIDDEN" });
  });
});

describe("apiRequestWithHeaders", () => {
  it("returns the parsed body with the answer's headers", async () => {
    answer([{ id: 2 }], { headers: { Link: '</api/admin/audit?before=2>; rel="next"' } });
    const { data, headers } = await apiRequestWithHeaders("/api/admin/audit", {
      schema: z.array(ZRow),
      fallbackError: "Failed.",
    });
    expect(data).toEqual([{ id: 2 }]);
    expect(headers.get("Link")).toContain("before=2");
  });

  it("says the portal could not be reached when the request itself fails", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(apiRequestWithHeaders("/api/x", { schema: ZRow, fallbackError: "Failed." })).rejects.toThrow(
      PORTAL_UNREACHABLE,
    );
  });
});

describe("apiDownload", () => {
  it("hands a cancelled download its own abort, not a connection problem", async () => {
    const abort = new AbortController();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        abort.abort();
        throw abort.signal.reason;
      }),
    );
    const error = await apiDownload("/api/admin/audit.csv", {
      accept: "text/csv",
      fallbackError: "Failed.",
      signal: abort.signal,
    }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AppRequestError);
    expect(error).toBe(abort.signal.reason);
  });
});
