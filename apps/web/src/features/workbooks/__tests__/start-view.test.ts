import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { TWorkbookStartResponse } from "@portal/contracts";

// The start of a workbook view (decision 024): sent once, read once, its list and its one-time URL each used
// by the first that asks for exactly them. Each test loads the modules afresh (their state is the page's).

const list = [
  { id: 1, workbook_name: "Portfolio-Overview-aaaaaaaaaaaaaaaaaaaaaa", team_name: "Portfolio" },
  { id: 2, workbook_name: "Tax-Center-bbbbbbbbbbbbbbbbbbbbbb", team_name: "Tax" },
];
const url = "http://127.0.0.1:3100/local/workbook/Portfolio-Overview-aaaaaaaaaaaaaaaaaaaaaa?:jwt=t";
const view = (over: Partial<TWorkbookStartResponse> = {}): TWorkbookStartResponse => ({
  clientId: null,
  workbooks: list,
  workbook: list[0]!.workbook_name,
  embedUrl: url,
  ...over,
});
const json = (body: unknown, status = 200) =>
  Object.defineProperty(new Response(JSON.stringify(body), { status }), "url", {
    value: "http://portal.test/api/me/workbook-start",
  });

let fetch: ReturnType<typeof vi.fn>;
const load = async () => ({
  ...(await import("../api/start-request")),
  ...(await import("../api/start-view")),
  ...(await import("../api/get-my-workbooks")),
  ...(await import("../api/get-embed-url")),
});

beforeEach(() => {
  vi.resetModules();
  fetch = vi.fn(async () => json(view()));
  vi.stubGlobal("fetch", fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("sendWorkbookStart", () => {
  it("asks once, for the page's first address, with the session's credentials", async () => {
    const { sendWorkbookStart, takeWorkbookStart } = await load();
    sendWorkbookStart({ pathname: "/workbooks/Tax-Center-bbbbbbbbbbbbbbbbbbbbbb", search: "?client=12" });
    sendWorkbookStart({ pathname: "/", search: "" });
    expect(fetch.mock.calls).toEqual([
      [
        "/api/me/workbook-start?workbook=Tax-Center-bbbbbbbbbbbbbbbbbbbbbb&client=12",
        { credentials: "include" },
      ],
    ]);
    expect(takeWorkbookStart()).toBeInstanceOf(Promise);
    expect(takeWorkbookStart()).toBeUndefined();
  });

  it("asks nothing where the page shows no workbook, nor later on a page that does", async () => {
    const { sendWorkbookStart, takeWorkbookStart } = await load();
    sendWorkbookStart({ pathname: "/profile", search: "" });
    sendWorkbookStart({ pathname: "/", search: "" });
    expect(fetch).not.toHaveBeenCalled();
    expect(takeWorkbookStart()).toBeUndefined();
  });
});

describe("the list and the URL the start brought", () => {
  it("gives the list of the client it was for, to the first load only", async () => {
    fetch.mockImplementation(async () => json(view({ clientId: 12 })));
    const { sendWorkbookStart, startedWorkbooks } = await load();
    sendWorkbookStart({ pathname: "/", search: "?client=12" });
    expect(await startedWorkbooks(null)).toBeNull();
    expect(await startedWorkbooks(12)).toEqual(list);
    expect(await startedWorkbooks(12)).toBeNull();
  });

  it("gives its URL once, to the first frame of that workbook of that client, with when it arrived", async () => {
    const { sendWorkbookStart, startedWorkbooks, takeStartedEmbed } = await load();
    vi.spyOn(performance, "getEntriesByName").mockReturnValue([
      { responseStart: 120 } as PerformanceResourceTiming,
      { responseStart: 480 } as PerformanceResourceTiming,
    ]);
    sendWorkbookStart({ pathname: "/", search: "" });
    expect(takeStartedEmbed(list[0]!.workbook_name, null)).toBeNull(); // not read yet: the list reads it
    await startedWorkbooks(null);
    expect(takeStartedEmbed(list[1]!.workbook_name, null)).toBeNull();
    expect(takeStartedEmbed(list[0]!.workbook_name, 12)).toBeNull();
    expect(takeStartedEmbed(list[0]!.workbook_name, null)).toEqual({
      url,
      receivedAt: performance.timeOrigin + 120,
    });
    expect(takeStartedEmbed(list[0]!.workbook_name, null)).toBeNull();
  });

  it("lets a URL that waited too long go: the view mints a new one", async () => {
    const { sendWorkbookStart, startedWorkbooks, takeStartedEmbed, STARTED_EMBED_MAX_AGE_MS } = await load();
    vi.spyOn(performance, "getEntriesByName").mockReturnValue([]);
    sendWorkbookStart({ pathname: "/", search: "" });
    await startedWorkbooks(null);
    vi.useFakeTimers({ now: Date.now() + STARTED_EMBED_MAX_AGE_MS + 1 });
    expect(takeStartedEmbed(list[0]!.workbook_name, null)).toBeNull();
  });

  it("brings nothing when the start failed or was refused: the view asks as ever", async () => {
    for (const failing of [
      async () => json({ error: "Client not found.", code: "NOT_FOUND" }, 404),
      async () => json({ workbooks: "no" }),
      async () => {
        throw new TypeError("Failed to fetch");
      },
    ]) {
      vi.resetModules();
      fetch.mockImplementation(failing);
      const { sendWorkbookStart, startedWorkbooks, takeStartedEmbed } = await load();
      sendWorkbookStart({ pathname: "/", search: "" });
      expect(await startedWorkbooks(null)).toBeNull();
      expect(takeStartedEmbed(list[0]!.workbook_name, null)).toBeNull();
    }
  });
});

describe("the view's queries", () => {
  it("load the started list without asking for it, and ask the API the next time", async () => {
    const { sendWorkbookStart, myWorkbooksQueryOptions } = await load();
    sendWorkbookStart({ pathname: "/", search: "" });
    const client = new QueryClient();
    expect(await client.fetchQuery(myWorkbooksQueryOptions(null))).toEqual(list);
    expect(fetch).toHaveBeenCalledTimes(1);
    fetch.mockImplementation(async () => json([list[1]]));
    expect(await client.fetchQuery({ ...myWorkbooksQueryOptions(null), staleTime: 0 })).toEqual([list[1]]);
    expect(fetch.mock.calls[1]?.[0]).toBe("/api/me/workbooks");
  });

  it("open the first frame with the started URL as of its arrival, and mint for every other frame", async () => {
    const { sendWorkbookStart, startedWorkbooks, embedUrlQuery } = await load();
    vi.spyOn(performance, "getEntriesByName").mockReturnValue([
      { responseStart: 50 } as PerformanceResourceTiming,
    ]);
    sendWorkbookStart({ pathname: "/", search: "" });
    await startedWorkbooks(null);
    const client = new QueryClient();
    const name = list[0]!.workbook_name;
    const renewal = new QueryObserver(client, embedUrlQuery(name, null, "m1.next", false));
    expect(renewal.getCurrentResult().data).toBeUndefined();
    const first = new QueryObserver(client, embedUrlQuery(name, null, "m1.0"));
    expect(first.getCurrentResult()).toMatchObject({
      data: url,
      dataUpdatedAt: performance.timeOrigin + 50,
      isPending: false,
    });
    fetch.mockImplementation(async () => json({ embedUrl: `${url}2` }));
    const retry = new QueryObserver(client, embedUrlQuery(name, null, "m1.1"));
    expect(retry.getCurrentResult().isPending).toBe(true);
    const stop = retry.subscribe(() => undefined);
    await vi.waitFor(() => expect(retry.getCurrentResult().data).toBe(`${url}2`));
    stop();
    expect(fetch.mock.calls.at(-1)?.[0]).toBe("/api/sigma/provision-and-embed");
  });
});
