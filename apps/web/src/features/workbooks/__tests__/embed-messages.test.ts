import { describe, expect, it } from "vitest";

import type {
  UrlOnChangeEvent,
  WorkbookChartErrorEvent,
  WorkbookFullScreenEvent,
  WorkbookSelectedNodeEvent,
  WorkbookVariableOnChangeEvent,
} from "@sigmacomputing/embed-sdk";

import {
  MAX_PAGE_HEIGHT,
  controlValueParam,
  embedFrame,
  readEmbedMessage,
  selectNodeMessage,
  variablesUpdateMessage,
} from "../utils/embed-messages";

const ORIGIN = "http://127.0.0.1:3100";
const frameWindow = { name: "the workbook frame" } as unknown as MessageEventSource;
const otherWindow = { name: "another frame" } as unknown as MessageEventSource;

const event = (data: unknown, overrides: { origin?: string; source?: MessageEventSource | null } = {}) => ({
  data,
  origin: overrides.origin ?? ORIGIN,
  source: overrides.source === undefined ? frameWindow : overrides.source,
});

describe("readEmbedMessage", () => {
  it("accepts the frame's own messages from the embed URL's origin", () => {
    expect(readEmbedMessage(event({ type: "workbook:dataloaded" }), frameWindow, ORIGIN)).toEqual({
      type: "workbook:dataloaded",
    });
    expect(
      readEmbedMessage(
        event({ type: "workbook:error", code: "EINVAL", message: "expired" }),
        frameWindow,
        ORIGIN,
      ),
    ).toEqual({ type: "workbook:error", code: "EINVAL", message: "expired" });
  });

  it("ignores a message from another window, even at the right origin", () => {
    expect(
      readEmbedMessage(event({ type: "workbook:loaded" }, { source: otherWindow }), frameWindow, ORIGIN),
    ).toBe(null);
    expect(readEmbedMessage(event({ type: "workbook:loaded" }, { source: null }), frameWindow, ORIGIN)).toBe(
      null,
    );
  });

  it("ignores a message from the frame's window at another origin (it navigated elsewhere)", () => {
    for (const origin of ["https://evil.example", "http://127.0.0.1:3101", "http://localhost:3100", "null"]) {
      expect(readEmbedMessage(event({ type: "workbook:loaded" }, { origin }), frameWindow, ORIGIN)).toBe(
        null,
      );
    }
  });

  it("ignores everything while there is no frame window", () => {
    expect(readEmbedMessage(event({ type: "workbook:loaded" }), null, ORIGIN)).toBe(null);
    expect(readEmbedMessage(event({ type: "workbook:loaded" }), undefined, ORIGIN)).toBe(null);
  });

  it("ignores data that is not an embed event", () => {
    for (const data of [null, "workbook:loaded", 42, [], {}, { type: 7 }, { type: "workbook:unknown" }]) {
      expect(readEmbedMessage(event(data), frameWindow, ORIGIN)).toBe(null);
    }
  });

  it("reads control values as Sigma nests them (the SDK's shape); flat values are not Sigma's", () => {
    expect(
      readEmbedMessage(
        event({ type: "workbook:loaded", workbook: { variables: { Client: "CL-1001", Bad: 3 } } }),
        frameWindow,
        ORIGIN,
      ),
    ).toEqual({ type: "workbook:loaded", workbook: { variables: { Client: "CL-1001" } } });
    const change: WorkbookVariableOnChangeEvent = {
      type: "workbook:variables:onchange",
      workbook: { variables: { Period: "ytd" } },
    };
    expect(readEmbedMessage(event(change), frameWindow, ORIGIN)).toEqual(change);
    expect(
      readEmbedMessage(
        event({ type: "workbook:variables:onchange", variables: { Period: "ytd" } }),
        frameWindow,
        ORIGIN,
      ),
    ).toEqual({ type: "workbook:variables:onchange", workbook: { variables: {} } });
  });

  it("reads full screen, URL, chart error and selection events in the SDK's shapes", () => {
    const full: WorkbookFullScreenEvent = { type: "workbook:fullscreen:onchange", fullScreen: true };
    const url: UrlOnChangeEvent = { type: "url:onchange", url: `${ORIGIN}/org/workbook/x/page/p2` };
    const chart: WorkbookChartErrorEvent = {
      type: "workbook:chart:error",
      code: "EQUERY",
      message: "This element could not be loaded.",
      nodeId: "growth",
    };
    const selected: WorkbookSelectedNodeEvent = {
      type: "workbook:selectednodeid:onchange",
      selectedNodeId: "p2",
      nodeType: "page",
    };
    const cleared: WorkbookSelectedNodeEvent = {
      type: "workbook:selectednodeid:onchange",
      selectedNodeId: null,
      nodeType: null,
    };
    for (const m of [full, url, chart, selected, cleared]) {
      expect(readEmbedMessage(event(m), frameWindow, ORIGIN)).toEqual(m);
    }
    for (const bad of [
      { type: "workbook:fullscreen:onchange", fullScreen: "yes" },
      { type: "url:onchange" },
      { type: "workbook:chart:error", code: "X" },
      { type: "workbook:selectednodeid:onchange", selectedNodeId: 3, nodeType: "page" },
      { type: "workbook:selectednodeid:onchange", selectedNodeId: "p2", nodeType: "sheet" },
    ]) {
      expect(readEmbedMessage(event(bad), frameWindow, ORIGIN)).toBe(null);
    }
  });

  it("sets changed control values in the shape of the SDK's workbookVariablesUpdate", () => {
    expect(variablesUpdateMessage({ Period: "min:2024-01-01,max:2024-06-30" })).toEqual({
      type: "workbook:variables:update",
      variables: { Period: "min:2024-01-01,max:2024-06-30" },
    });
    expect(variablesUpdateMessage({})).toBe(null);
    expect(variablesUpdateMessage(null)).toBe(null);
  });

  it("asks a new frame for the selection in the shape of the SDK's workbookSelectedNodeIdUpdate", () => {
    expect(selectNodeMessage({ selectedNodeId: "p2", nodeType: "page" })).toEqual({
      type: "workbook:selectednodeid:update",
      selectedNodeId: "p2",
      nodeType: "page",
    });
    expect(selectNodeMessage(null)).toBe(null);
    expect(selectNodeMessage({ selectedNodeId: null, nodeType: null })).toBe(null);
  });

  it("believes only a sensible page height", () => {
    const height = (pageHeight: unknown) =>
      readEmbedMessage(event({ type: "workbook:pageheight:onchange", pageHeight }), frameWindow, ORIGIN);
    expect(height(1234.2)).toEqual({ type: "workbook:pageheight:onchange", pageHeight: 1235 });
    expect(height(10_000_000)).toEqual({ type: "workbook:pageheight:onchange", pageHeight: MAX_PAGE_HEIGHT });
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, "900", undefined])
      expect(height(bad)).toBe(null);
  });

  it("gives an error without a code the code UNKNOWN", () => {
    expect(readEmbedMessage(event({ type: "workbook:error" }), frameWindow, ORIGIN)).toEqual({
      type: "workbook:error",
      code: "UNKNOWN",
      message: "",
    });
  });
});

describe("embedFrame", () => {
  const minted = `${ORIGIN}/local/workbook/Tax-Center-hPiZspmSJMAnf8GyCctPAE?:jwt=aaa.bbb.ccc&:embed=true`;

  it("keeps the minted URL and adds the page-height UI parameter", () => {
    expect(embedFrame(minted)).toEqual({ src: `${minted}&:responsive_height=true`, origin: ORIGIN });
  });

  it("carries chosen control values as Sigma reported them, without overriding what the URL already has", () => {
    const frame = embedFrame(`${minted}&Account=all`, {
      Period: "min:2025-01-01,max:2025-06-30",
      Account: "x",
    });
    expect(frame?.src).toBe(
      `${minted}&Account=all&:responsive_height=true&Period=min:2025-01-01,max:2025-06-30`,
    );
    expect(embedFrame(minted, { ":jwt": "forged" })?.src).toBe(`${minted}&:responsive_height=true`);
  });

  it("puts Sigma's URL-encoded control values back exactly: separators bare, escapes kept", () => {
    // Sigma's own examples (control values in the URL): values arrive encoded and go back as they are.
    const values = {
      "store-region": "East,Midwest",
      "Employee-Name": "Greg%20Humphrey,Xiaoyu%20Xu",
      "User-Revenue": "min:1%2C000,max:3%2C000",
      "sales-amount": "30,450,2%2C000,600",
      start_date: "2024-05-01",
      start_time: "2024-05-01T08:00Z",
      "Analysis-Time-Frame": "min:2024-04-01,max:prior-day-3",
      City: "Z%C3%BCrich",
      Advisor: ":null",
      Notes: ":empty",
    };
    const src = embedFrame(minted, values)!.src;
    expect(src).toBe(
      `${minted}&:responsive_height=true&store-region=East,Midwest&Employee-Name=Greg%20Humphrey,Xiaoyu%20Xu` +
        "&User-Revenue=min:1%2C000,max:3%2C000&sales-amount=30,450,2%2C000,600&start_date=2024-05-01" +
        "&start_time=2024-05-01T08:00Z&Analysis-Time-Frame=min:2024-04-01,max:prior-day-3" +
        "&City=Z%C3%BCrich&Advisor=:null&Notes=:empty",
    );
    // Nothing encoded twice (the bug: %20 became %2520, separator commas %2C).
    expect(src).not.toContain("%25");
    expect(src).not.toMatch(/%2C(?=max|Xiaoyu|Midwest|450)/);
    expect(new URL(src).searchParams.get("City")).toBe("Zürich");
  });

  it("encodes the control's name, as before", () => {
    expect(embedFrame(minted, { "Tax year": "2024" })?.src).toBe(
      `${minted}&:responsive_height=true&Tax%20year=2024`,
    );
  });

  it("encodes, one by one, characters no encoded value has, so a value never adds a parameter or a fragment", () => {
    const src = embedFrame(minted, { Account: "x&:jwt=forged#top", Client: "CL-1001" })!.src;
    expect(src).toBe(`${minted}&:responsive_height=true&Account=x%26:jwt%3Dforged%23top&Client=CL-1001`);
    const url = new URL(src);
    expect(url.hash).toBe("");
    expect(url.searchParams.getAll(":jwt")).toEqual(["aaa.bbb.ccc"]);
    expect(url.searchParams.get("Account")).toBe("x&:jwt=forged#top");
    expect([...url.searchParams.keys()]).toEqual([
      ":jwt",
      ":embed",
      ":responsive_height",
      "Account",
      "Client",
    ]);
  });

  it("encodes whitespace, quotes, angle brackets, control characters, non-ASCII and a bare %", () => {
    expect(controlValueParam('a b\t"<x>"\n')).toBe("a%20b%09%22%3Cx%3E%22%0A");
    expect(controlValueParam("Zürich,Genève")).toBe("Z%C3%BCrich,Gen%C3%A8ve");
    expect(controlValueParam("100%")).toBe("100%25");
    expect(controlValueParam("50%2C5%")).toBe("50%2C5%25");
    // A plus is a plus: as a bare `+` a query parser would read a space.
    expect(controlValueParam("2024-05-01T08:00:00+02:00")).toBe("2024-05-01T08:00:00%2B02:00");
    expect(controlValueParam("😀")).toBe("%F0%9F%98%80");
  });

  it("drops a value that cannot be encoded at all (a lone surrogate): the control keeps its default", () => {
    expect(controlValueParam("ab\ud800")).toBe(null);
    expect(embedFrame(minted, { Account: "ab\ud800", Client: "CL-1001" })?.src).toBe(
      `${minted}&:responsive_height=true&Client=CL-1001`,
    );
  });

  it("adds to a URL without a query, and keeps a fragment last", () => {
    expect(embedFrame(`${ORIGIN}/local/workbook/x`, { A: "1,2" })?.src).toBe(
      `${ORIGIN}/local/workbook/x?:responsive_height=true&A=1,2`,
    );
    expect(embedFrame(`${ORIGIN}/local/workbook/x?:jwt=t#p`, { A: "1" })?.src).toBe(
      `${ORIGIN}/local/workbook/x?:jwt=t&:responsive_height=true&A=1#p`,
    );
  });

  it("refuses anything but an absolute http(s) URL", () => {
    for (const url of ["javascript:alert(1)", "data:text/html,hi", "/local/workbook/x", "", "not a url"]) {
      expect(embedFrame(url)).toBe(null);
    }
  });
});
