import type { WorkbookFullscreenUpdateEventName } from "@sigmacomputing/embed-sdk";
import { describe, expect, it } from "vitest";
import { readInbound, type InboundMessage } from "../web/messages.ts";

describe("readInbound: what the host may ask of the frame, in the shapes the SDK's mutations send", () => {
  it("reads the four messages", () => {
    const full: InboundMessage & { type: typeof WorkbookFullscreenUpdateEventName } = {
      type: "workbook:fullscreen:update",
      nodeId: "growth",
    };
    expect(readInbound(full)).toEqual(full);
    expect(readInbound({ type: "workbook:fullscreen:update", nodeId: null })).toEqual({
      type: "workbook:fullscreen:update",
      nodeId: null,
    });
    expect(
      readInbound({ type: "workbook:selectednodeid:update", selectedNodeId: "overview", nodeType: "page" }),
    ).toEqual({ type: "workbook:selectednodeid:update", selectedNodeId: "overview", nodeType: "page" });
    expect(readInbound({ type: "workbook:variables:list" })).toEqual({ type: "workbook:variables:list" });
    // Only text values are control values.
    expect(
      readInbound({
        type: "workbook:variables:update",
        variables: { Period: "ytd", Client: 7, Account: null },
      }),
    ).toEqual({ type: "workbook:variables:update", variables: { Period: "ytd" } });
  });

  it("ignores anything malformed or unknown", () => {
    for (const data of [
      null,
      "workbook:variables:list",
      [],
      { type: "workbook:variables:update" },
      { type: "workbook:variables:update", variables: ["ytd"] },
      { type: "workbook:fullscreen:update" },
      { type: "workbook:fullscreen:update", nodeId: 3 },
      { type: "workbook:selectednodeid:update", selectedNodeId: "x", nodeType: "sheet" },
      { type: "workbook:selectednodeid:update", selectedNodeId: 1, nodeType: "element" },
      { type: "workbook:bookmark:create", name: "b" },
      { type: "workbook:loaded", workbook: { variables: {} } },
    ]) {
      expect(readInbound(data), JSON.stringify(data)).toBe(null);
    }
  });
});
