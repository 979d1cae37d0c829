import { describe, expect, it } from "vitest";

import type {
  UrlOnChangeEvent,
  WorkbookChartErrorEvent,
  WorkbookFullScreenEvent,
  WorkbookSelectedNodeEvent,
  WorkbookVariableOnChangeEvent,
} from "@sigmacomputing/embed-sdk";

import { MAX_PAGE_HEIGHT, embedFrame, readEmbedMessage, selectNodeMessage } from "../utils/embed-messages";

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

  it("carries chosen control values, without overriding what the URL already has", () => {
    const frame = embedFrame(`${minted}&Account=all`, {
      Period: "min:2025-01-01,max:2025-06-30",
      Account: "x",
    });
    expect(frame?.src).toBe(
      `${minted}&Account=all&:responsive_height=true&Period=min%3A2025-01-01%2Cmax%3A2025-06-30`,
    );
    expect(embedFrame(minted, { ":jwt": "forged" })?.src).toBe(`${minted}&:responsive_height=true`);
  });

  it("refuses anything but an absolute http(s) URL", () => {
    for (const url of ["javascript:alert(1)", "data:text/html,hi", "/local/workbook/x", "", "not a url"]) {
      expect(embedFrame(url)).toBe(null);
    }
  });
});
