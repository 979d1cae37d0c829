import { describe, expect, it } from "vitest";

import type { TEmbedMessage } from "../utils/embed-messages";
import { embedReducer, initialEmbedState } from "../utils/embed-state";
import type { TEmbedAction, TEmbedState } from "../utils/embed-state";

const message = (m: TEmbedMessage): TEmbedAction => ({ type: "message", message: m });
const einval = message({ type: "workbook:error", code: "EINVAL", message: "The link was already used." });
const loaded = (variables: Record<string, string> = {}) =>
  message({ type: "workbook:loaded", workbook: { variables } });
const run = (...actions: TEmbedAction[]): TEmbedState => actions.reduce(embedReducer, initialEmbedState);

describe("embedReducer", () => {
  it("is loading until the frame reports workbook:loaded", () => {
    expect(run().phase).toBe("loading");
    expect(run(message({ type: "workbook:dataloaded" })).phase).toBe("loading");
    expect(run(loaded()).phase).toBe("loaded");
  });

  it("re-mints once by itself on EINVAL", () => {
    const state = run(einval);
    expect(state.attempt).toBe(1);
    expect(state.phase).toBe("loading");
    expect(state.failure).toBe(null);
  });

  it("shows the failure on a second EINVAL, without minting again", () => {
    const state = run(einval, einval);
    expect(state.attempt).toBe(1);
    expect(state.phase).toBe("failed");
    expect(state.failure).toEqual({ code: "EINVAL", message: "The link was already used." });
    // Further errors change nothing: one failure, one message.
    expect(embedReducer(state, einval)).toBe(state);
  });

  it("earns the next silent re-mint with a successful load (a session that ran out later)", () => {
    const state = run(einval, loaded(), einval);
    expect(state.attempt).toBe(2);
    expect(state.phase).toBe("loading");
    expect(run(einval, loaded(), einval, einval).phase).toBe("failed");
  });

  it("does not re-mint on other errors", () => {
    for (const code of ["EACCES", "ENOENT", "EPERM", "UNKNOWN"]) {
      const state = run(message({ type: "workbook:error", code, message: "no" }));
      expect(state.attempt).toBe(0);
      expect(state.phase).toBe("failed");
      expect(state.failure?.code).toBe(code);
    }
  });

  it("'Try again' mints a new URL and allows the silent re-mint again", () => {
    const state = run(einval, einval, { type: "retry" });
    expect(state.attempt).toBe(2);
    expect(state.phase).toBe("loading");
    expect(state.reminted).toBe(false);
    expect(embedReducer(state, einval).attempt).toBe(3);
  });

  it("fails on timeout only while loading", () => {
    expect(run({ type: "timeout" }).failure).toEqual({ code: "TIMEOUT", message: "" });
    expect(run(loaded(), { type: "timeout" }).phase).toBe("loaded");
  });

  it("a frame that loaded a page but never spoke is reported as unreachable, only while loading", () => {
    expect(run({ type: "silent" })).toMatchObject({
      phase: "failed",
      failure: { code: "UNREACHABLE", message: "" },
    });
    expect(run(loaded(), { type: "silent" }).phase).toBe("loaded");
  });

  it("follows the page height of the current frame and forgets it with a new one", () => {
    const tall = run(loaded(), message({ type: "workbook:pageheight:onchange", pageHeight: 2400 }));
    expect(tall.pageHeight).toBe(2400);
    expect(embedReducer(tall, einval).pageHeight).toBe(null);
  });

  it("opens the new frame with the control values chosen so far", () => {
    const state = run(
      loaded({ Client: "CL-1001", Period: "ytd" }),
      message({ type: "workbook:variables:onchange", workbook: { variables: { Period: "t12m" } } }),
      einval,
    );
    expect(state.openedWith).toEqual({ Client: "CL-1001", Period: "t12m" });
  });

  it("covers the window while an element is full screen, and not in a new frame", () => {
    const full = run(loaded(), message({ type: "workbook:fullscreen:onchange", fullScreen: true }));
    expect(full.fullScreen).toBe(true);
    expect(
      embedReducer(full, message({ type: "workbook:fullscreen:onchange", fullScreen: false })).fullScreen,
    ).toBe(false);
    expect(embedReducer(full, einval).fullScreen).toBe(false);
  });

  it("restores the selected page in the frame opened by a re-mint", () => {
    const selected = run(
      loaded(),
      message({ type: "url:onchange", url: "http://bi.test/org/workbook/Tax-Center-x/page/lots" }),
      message({ type: "workbook:selectednodeid:onchange", selectedNodeId: "lots", nodeType: "page" }),
    );
    expect(selected.url).toBe("http://bi.test/org/workbook/Tax-Center-x/page/lots");
    expect(selected.restore).toBe(null);
    const reopened = embedReducer(selected, einval);
    expect(reopened.restore).toEqual({ selectedNodeId: "lots", nodeType: "page" });
    expect(reopened.url).toBe(null);
    // The new frame confirms the selection: nothing left to restore.
    const confirmed = embedReducer(
      embedReducer(reopened, loaded()),
      message({ type: "workbook:selectednodeid:onchange", selectedNodeId: "lots", nodeType: "page" }),
    );
    expect(confirmed.restore).toBe(null);
  });

  it("a chart error is one element's failure: the view stays loaded", () => {
    const chartError = message({
      type: "workbook:chart:error",
      code: "EQUERY",
      message: "no",
      nodeId: "growth",
    });
    const state = run(loaded(), chartError, chartError);
    expect(state.phase).toBe("loaded");
    expect(state.failure).toBe(null);
    expect(state.chartErrors).toEqual(["growth"]);
  });
});
