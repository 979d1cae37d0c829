import { afterEach, describe, expect, it, vi } from "vitest";

import { PORTAL_UNREACHABLE } from "@/lib/api-client";
import { AppRequestError } from "@/lib/errors";

import { getEmbedUrl } from "../api/get-embed-url";
import { backendErrorMessage } from "../utils/embed-errors";

const answer = (status: number, body: string) => vi.fn(async () => new Response(body, { status }));

afterEach(() => vi.unstubAllGlobals());

describe("backendErrorMessage", () => {
  it("shows the server's error text after the status (spec section 8)", () => {
    expect(backendErrorMessage(404, '{"error":"Workbook not found."}')).toBe(
      "Backend error 404: Workbook not found.",
    );
    expect(backendErrorMessage(502, "Bad Gateway\n")).toBe("Backend error 502: Bad Gateway");
    expect(backendErrorMessage(500, "")).toBe("Backend error 500: ");
  });

  it("shortens a long body", () => {
    const message = backendErrorMessage(500, "x".repeat(5000));
    expect(message.length).toBeLessThan(330);
    expect(message.endsWith("…")).toBe(true);
  });
});

describe("getEmbedUrl", () => {
  it("posts the workbook name and returns the minted URL", async () => {
    const fetch = answer(
      200,
      JSON.stringify({ embedUrl: "http://127.0.0.1:3100/local/workbook/A-b?:jwt=t" }),
    );
    vi.stubGlobal("fetch", fetch);
    await expect(getEmbedUrl("A-b")).resolves.toBe("http://127.0.0.1:3100/local/workbook/A-b?:jwt=t");
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe("/api/sigma/provision-and-embed");
    expect(init.method).toBe("POST");
    expect(init.cache).toBe("no-store");
    expect(JSON.parse(String(init.body))).toEqual({ workbookId: "A-b" });
  });

  it("returns null when the answer has no embed URL ('No embed data available.')", async () => {
    for (const body of ["{}", '{"embedUrl":null}', '{"embedUrl":""}', "not json", ""]) {
      vi.stubGlobal("fetch", answer(200, body));
      await expect(getEmbedUrl("A-b")).resolves.toBe(null);
    }
  });

  it("throws 'Backend error {status}: {body}' with the status on a failed call", async () => {
    vi.stubGlobal("fetch", answer(429, '{"error":"Too many workbook requests."}'));
    const error = await getEmbedUrl("A-b").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppRequestError);
    expect((error as AppRequestError).message).toBe("Backend error 429: Too many workbook requests.");
    expect((error as AppRequestError).status).toBe(429);
  });

  it("says the portal could not be reached when the request itself fails", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(getEmbedUrl("A-b")).rejects.toThrow(PORTAL_UNREACHABLE);
  });
});
