import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";

import { ZProvisionAndEmbedRequestSchema } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

import { embedRequestBody, embedUrlQueryOptions, getEmbedUrl } from "../api/get-embed-url";
import { getMyClients, myClientsQueryOptions } from "../api/get-my-clients";
import {
  DELEGATED_RECHECK_MS,
  getMyWorkbooks,
  myWorkbooksPath,
  myWorkbooksQueryOptions,
} from "../api/get-my-workbooks";
import { prefetchViewedWorkbooks } from "../api/prefetch-workbooks";

const workbook = { id: 1, workbook_name: "Portfolio-Overview-x1", team_name: "Portfolio" };
const olivia = { c_id: 12, name: "Olivia Bennett", self: false, expires_at: null, workbooks: [workbook] };
const noah = { c_id: 40, name: "Noah Reed", self: false, expires_at: null, workbooks: [] };

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** Answers each path the portal's API would, and records what was asked. */
function stubApi(answers: Record<string, () => Response>) {
  const fetch = vi.fn(async (path: string) => {
    const answer = answers[path];
    return answer ? answer() : json({ error: "Not found.", code: "NOT_FOUND" }, 404);
  });
  vi.stubGlobal("fetch", fetch);
  return {
    paths: () => fetch.mock.calls.map(([path]) => path),
    bodies: () =>
      (fetch.mock.calls as unknown as [string, RequestInit][]).map(([, init]) =>
        init.body === undefined ? undefined : JSON.parse(String(init.body)),
      ),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("GET /api/me/workbooks for the client being viewed", () => {
  it("asks for one's own list as before, and a client's with ?client=", () => {
    expect(myWorkbooksPath(null)).toBe("/api/me/workbooks");
    expect(myWorkbooksPath(12)).toBe("/api/me/workbooks?client=12");
  });

  it("sends the request and returns the list", async () => {
    const api = stubApi({ "/api/me/workbooks?client=12": () => json([workbook]) });
    await expect(getMyWorkbooks(12)).resolves.toEqual([workbook]);
    expect(api.paths()).toEqual(["/api/me/workbooks?client=12"]);
  });

  it("turns a client no longer shared (404) into an error with its status", async () => {
    stubApi({});
    const error = await getMyWorkbooks(12).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppRequestError);
    expect((error as AppRequestError).status).toBe(404);
  });

  it("keeps each client's list in a cache entry of its own; one's own keeps today's key", () => {
    const own = myWorkbooksQueryOptions().queryKey;
    const keys = [own, myWorkbooksQueryOptions(12).queryKey, myWorkbooksQueryOptions(40).queryKey];
    expect(own).toEqual(["me", "workbooks"]);
    expect(myWorkbooksQueryOptions(null).queryKey).toEqual(own);
    expect(new Set(keys.map((key) => JSON.stringify(key))).size).toBe(3);
  });

  it("does not ask again after a 404, but once after another failure", () => {
    const retry = myWorkbooksQueryOptions(12).retry as (failures: number, error: unknown) => boolean;
    expect(retry(0, new AppRequestError("Client not found.", { status: 404 }))).toBe(false);
    expect(retry(0, new AppRequestError("Server error.", { status: 500 }))).toBe(true);
    expect(retry(1, new AppRequestError("Server error.", { status: 500 }))).toBe(false);
  });

  it("checks a delegated view again every minute, one's own list not", () => {
    expect(myWorkbooksQueryOptions(12).refetchInterval).toBe(DELEGATED_RECHECK_MS);
    expect(DELEGATED_RECHECK_MS).toBe(60_000);
    expect(myWorkbooksQueryOptions(null).refetchInterval).toBe(false);
  });
});

describe("POST /api/sigma/provision-and-embed for the client being viewed", () => {
  it("sends clientId only for a client other than one's own", () => {
    expect(embedRequestBody("A-b", null)).toEqual({ workbookId: "A-b" });
    expect(embedRequestBody("A-b", 12)).toEqual({ workbookId: "A-b", clientId: 12 });
    expect(ZProvisionAndEmbedRequestSchema.safeParse(embedRequestBody("A-b", 12)).success).toBe(true);
  });

  it("posts the client's number with the workbook", async () => {
    const api = stubApi({ "/api/sigma/provision-and-embed": () => json({ embedUrl: "http://bi/w?:jwt=t" }) });
    await expect(getEmbedUrl("A-b", 12)).resolves.toBe("http://bi/w?:jwt=t");
    await getEmbedUrl("A-b");
    expect(api.bodies()).toEqual([{ workbookId: "A-b", clientId: 12 }, { workbookId: "A-b" }]);
  });

  it("never shares a minted URL between two clients' workbooks of the same name", () => {
    const own = embedUrlQueryOptions("A-b", null, "m1.0").queryKey;
    const client = embedUrlQueryOptions("A-b", 12, "m1.0").queryKey;
    expect(JSON.stringify(own)).not.toBe(JSON.stringify(client));
    expect(client).toContain(12);
  });
});

describe("GET /api/me/clients", () => {
  it("reads the list of clients the person may view", async () => {
    const api = stubApi({ "/api/me/clients": () => json([olivia, noah]) });
    await expect(getMyClients()).resolves.toEqual([olivia, noah]);
    expect(api.paths()).toEqual(["/api/me/clients"]);
    expect(myClientsQueryOptions().queryKey).toEqual(["me", "clients"]);
  });
});

describe("prefetchViewedWorkbooks (the user shell's first requests)", () => {
  const answers = {
    "/api/me/clients": () => json([olivia, noah]),
    "/api/me/workbooks": () => json([workbook]),
    "/api/me/workbooks?client=12": () => json([workbook]),
    "/api/me/workbooks?client=40": () => json([]),
  };

  it("asks for one's own workbooks and the clients, as the page has no ?client=", async () => {
    const api = stubApi(answers);
    const queryClient = new QueryClient();
    await prefetchViewedWorkbooks(queryClient, "", "client");
    expect(api.paths().sort()).toEqual(["/api/me/clients", "/api/me/workbooks"]);
    expect(queryClient.getQueryData(myWorkbooksQueryOptions().queryKey)).toEqual([workbook]);
  });

  it("asks for the client in the address", async () => {
    const api = stubApi(answers);
    const queryClient = new QueryClient();
    await prefetchViewedWorkbooks(queryClient, "?client=40", "client");
    expect(api.paths()).toContain("/api/me/workbooks?client=40");
    expect(api.paths()).not.toContain("/api/me/workbooks");
    expect(queryClient.getQueryData(myWorkbooksQueryOptions(40).queryKey)).toEqual([]);
  });

  it("for a delegate without workbooks of their own, asks for the first client's once the list is in", async () => {
    const api = stubApi(answers);
    await prefetchViewedWorkbooks(new QueryClient(), "", "delegate");
    expect(api.paths()).toEqual(["/api/me/clients", "/api/me/workbooks?client=12"]);
  });

  it("asks for no workbooks when ?client= is no client's number", async () => {
    const api = stubApi(answers);
    await prefetchViewedWorkbooks(new QueryClient(), "?client=abc", "client");
    expect(api.paths()).toEqual(["/api/me/clients"]);
  });
});
