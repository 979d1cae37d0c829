import { describe, expect, it } from "vitest";

import type { TEmbedMessage } from "../utils/embed-messages";
import { embedReducer, initialEmbedState } from "../utils/embed-state";
import type { TEmbedAction, TEmbedState } from "../utils/embed-state";

const message = (m: TEmbedMessage): TEmbedAction => ({ type: "message", message: m });
const einvalMessage: TEmbedMessage = {
  type: "workbook:error",
  code: "EINVAL",
  message: "The link was already used.",
};
const einval = message(einvalMessage);
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

  it("a frame that loaded a page but never spoke is reported as not opened, only while loading", () => {
    expect(run({ type: "silent" })).toMatchObject({
      phase: "failed",
      failure: { code: "SILENT", message: "" },
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

  it("mints every new URL under a key never used before, whatever the order of re-mints and renewals", () => {
    let state = run(loaded());
    const used = new Set([state.attempt]);
    const steps: Array<(s: TEmbedState) => TEmbedAction> = [
      () => renew,
      () => einval,
      () => loaded(),
      () => renew,
      () => ({ type: "retry" }),
      () => loaded(),
      () => renew,
      (s) => ({ type: "message", message: loadedMessage, attempt: s.renewal!.attempt }),
      (s) => ({ type: "swap", attempt: s.renewal!.attempt }),
      () => renew,
    ];
    for (const step of steps) {
      const before = state;
      state = embedReducer(state, step(state));
      const known = [before.attempt, before.renewal?.attempt];
      for (const key of [state.attempt, state.renewal?.attempt]) {
        if (key === undefined || known.includes(key)) continue;
        expect(used.has(key), `key ${key} used again`).toBe(false);
        used.add(key);
      }
    }
    expect([...used]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(state).toMatchObject({ attempt: 5, renewal: { attempt: 6 } });
  });
});

const renew: TEmbedAction = { type: "renew" };
const fromNext = (state: TEmbedState, m: TEmbedMessage): TEmbedAction => ({
  type: "message",
  message: m,
  attempt: state.renewal!.attempt,
});
const fromCurrent = (state: TEmbedState, m: TEmbedMessage): TEmbedAction => ({
  type: "message",
  message: m,
  attempt: state.attempt,
});
const dataLoaded: TEmbedMessage = { type: "workbook:dataloaded" };
const loadedMessage: TEmbedMessage = { type: "workbook:loaded", workbook: { variables: {} } };
const apply = (state: TEmbedState, ...steps: Array<(s: TEmbedState) => TEmbedAction>) =>
  steps.reduce((s, step) => embedReducer(s, step(s)), state);

describe("embedReducer: renewal before the session ends", () => {
  const period = "min:2024-01-01,max:2024-06-30";
  /** A loaded frame where the person chose a period and went to the 'lots' page. */
  const viewing = run(
    loaded({ Period: "ytd" }),
    message({ type: "workbook:variables:onchange", workbook: { variables: { Period: period } } }),
    message({ type: "workbook:selectednodeid:onchange", selectedNodeId: "lots", nodeType: "page" }),
    message({ type: "workbook:pageheight:onchange", pageHeight: 1800 }),
  );

  it("renews only a loaded frame, once, under a new mint key, leaving the current frame as it is", () => {
    expect(run(renew).renewal).toBe(null);
    const renewing = embedReducer(viewing, renew);
    expect(renewing).toMatchObject({ attempt: 0, phase: "loaded", pageHeight: 1800, ended: false });
    expect(renewing.renewal).toMatchObject({
      attempt: 1,
      phase: "loading",
      openedWith: { Period: period },
      selection: { selectedNodeId: "lots", nodeType: "page" },
    });
    expect(embedReducer(renewing, renew)).toBe(renewing);
  });

  it("swaps once the next frame has loaded, shown the selection and its data: values and page kept", () => {
    const renewing = embedReducer(viewing, renew);
    const nextLoaded = apply(renewing, (s) => fromNext(s, loadedMessage));
    // Loaded, but not yet on the person's page: the current frame stays.
    expect(nextLoaded).toMatchObject({ attempt: 0, renewal: { phase: "loaded", selecting: true } });
    const early = apply(nextLoaded, (s) => fromNext(s, dataLoaded));
    expect(early.attempt).toBe(0);
    const onPage = apply(
      early,
      (s) =>
        fromNext(s, { type: "workbook:selectednodeid:onchange", selectedNodeId: "lots", nodeType: "page" }),
      (s) => fromNext(s, { type: "workbook:pageheight:onchange", pageHeight: 2100 }),
      (s) => fromNext(s, { type: "url:onchange", url: "http://bi.test/org/workbook/x/page/lots" }),
    );
    expect(onPage.attempt).toBe(0);
    const swapped = apply(onPage, (s) => fromNext(s, dataLoaded));
    expect(swapped).toMatchObject({
      attempt: 1,
      minted: 1,
      phase: "loaded",
      openedWith: { Period: period },
      variables: { Period: period },
      selection: { selectedNodeId: "lots", nodeType: "page" },
      restore: null,
      update: null,
      pageHeight: 2100,
      url: "http://bi.test/org/workbook/x/page/lots",
      renewal: null,
      renewalFailed: false,
    });
  });

  it("without a selection to restore, swaps at the next frame's first data", () => {
    const state = apply(
      run(loaded({ Period: "ytd" }), renew),
      (s) => fromNext(s, loadedMessage),
      (s) => fromNext(s, dataLoaded),
    );
    expect(state).toMatchObject({ attempt: 1, renewal: null, restore: null });
  });

  it("swaps SWAP_WAIT_MS after the next frame loaded, even without its data; never before it loaded", () => {
    const renewing = embedReducer(viewing, renew);
    const early = embedReducer(renewing, { type: "swap", attempt: renewing.renewal!.attempt });
    expect(early).toBe(renewing);
    const nextLoaded = apply(renewing, (s) => fromNext(s, loadedMessage));
    const swapped = embedReducer(nextLoaded, { type: "swap", attempt: nextLoaded.renewal!.attempt });
    expect(swapped.attempt).toBe(1);
    // The selection was never confirmed: it is asked for again in the frame now shown.
    expect(swapped.restore).toEqual({ selectedNodeId: "lots", nodeType: "page" });
    // A late timer of a renewal already over changes nothing.
    expect(embedReducer(swapped, { type: "swap", attempt: 1 })).toBe(swapped);
  });

  it("what the person changed in the current frame meanwhile is carried into the next one", () => {
    const renewing = apply(
      embedReducer(viewing, renew),
      (s) => fromNext(s, loadedMessage),
      (s) =>
        fromCurrent(s, {
          type: "workbook:variables:onchange",
          workbook: { variables: { Period: "min:2023-01-01,max:2023-12-31", Account: "CL-1001-02" } },
        }),
      (s) =>
        fromCurrent(s, {
          type: "workbook:selectednodeid:onchange",
          selectedNodeId: "income",
          nodeType: "page",
        }),
    );
    const swapped = embedReducer(renewing, { type: "swap", attempt: renewing.renewal!.attempt });
    expect(swapped.attempt).toBe(1);
    expect(swapped.update).toEqual({ Period: "min:2023-01-01,max:2023-12-31", Account: "CL-1001-02" });
    expect(swapped.restore).toEqual({ selectedNodeId: "income", nodeType: "page" });
    // The next renewal opens with them.
    expect(embedReducer(swapped, renew).renewal?.openedWith).toEqual({
      Period: "min:2023-01-01,max:2023-12-31",
      Account: "CL-1001-02",
    });
  });

  it("the replaced frame is not listened to any more; the next frame's own control report is no choice", () => {
    const renewing = embedReducer(viewing, renew);
    const ignored = apply(renewing, (s) =>
      fromNext(s, { type: "workbook:variables:onchange", workbook: { variables: { Period: "ytd" } } }),
    );
    expect(ignored.variables).toEqual({ Period: period });
    const swapped = apply(
      ignored,
      (s) => fromNext(s, loadedMessage),
      (s) => ({ type: "swap", attempt: s.renewal!.attempt }),
    );
    const old: TEmbedAction = { type: "message", message: einvalMessage, attempt: 0 };
    expect(embedReducer(swapped, old)).toBe(swapped);
    expect(embedReducer(swapped, { type: "timeout", attempt: 0 })).toBe(swapped);
  });

  it("waits with the swap while an element of the current frame is full screen", () => {
    const full = apply(
      embedReducer(viewing, renew),
      (s) => fromCurrent(s, { type: "workbook:fullscreen:onchange", fullScreen: true }),
      (s) => fromNext(s, loadedMessage),
      (s) => ({ type: "swap", attempt: s.renewal!.attempt }),
    );
    expect(full).toMatchObject({ attempt: 0, fullScreen: true, renewal: { ready: true } });
    const back = apply(full, (s) =>
      fromCurrent(s, { type: "workbook:fullscreen:onchange", fullScreen: false }),
    );
    expect(back).toMatchObject({ attempt: 1, fullScreen: false, renewal: null });
  });

  it("a renewal whose frame fails or never loads is dropped and not tried again; the current frame stays", () => {
    const renewing = embedReducer(viewing, renew);
    const failures: Array<(s: TEmbedState) => TEmbedAction> = [
      (s) => fromNext(s, { type: "workbook:error", code: "EACCES", message: "no" }),
      (s) => fromNext(s, { type: "workbook:error", code: "EINVAL", message: "used" }),
      (s) => ({ type: "timeout", attempt: s.renewal!.attempt }),
      (s) => ({ type: "silent", attempt: s.renewal!.attempt }),
      (s) => ({ type: "renewal-failed", attempt: s.renewal!.attempt }),
    ];
    for (const failure of failures) {
      const failed = apply(renewing, failure);
      expect(failed).toMatchObject({ attempt: 0, phase: "loaded", renewal: null, renewalFailed: true });
      expect(embedReducer(failed, renew)).toBe(failed);
      // Its session then ends: the portal's message with 'Try again', which reopens with the values.
      const ended = embedReducer(failed, { type: "session-ended", renew: true });
      expect(ended).toMatchObject({ phase: "failed", failure: { code: "SESSION_ENDED" }, renewal: null });
      const again = embedReducer(ended, { type: "retry" });
      expect(again).toMatchObject({
        phase: "loading",
        renewalFailed: false,
        ended: false,
        openedWith: { Period: period },
      });
      expect(again.attempt).toBeGreaterThan(1);
    }
  });

  it("a session that ends during the renewal hides the old frame until the next one has loaded", () => {
    const renewing = embedReducer(viewing, renew);
    const ended = embedReducer(renewing, { type: "session-ended", renew: true });
    expect(ended).toMatchObject({ attempt: 0, phase: "loaded", ended: true, renewal: { phase: "loading" } });
    // No need to wait for the data or the selection any more: anything is better than the expired page.
    const swapped = apply(ended, (s) => fromNext(s, loadedMessage));
    expect(swapped).toMatchObject({ attempt: 1, phase: "loaded", ended: false, renewal: null });
    expect(swapped.restore).toEqual({ selectedNodeId: "lots", nodeType: "page" });
    // ...and if the next frame fails now, the view says the session ended.
    expect(apply(ended, (s) => ({ type: "renewal-failed", attempt: s.renewal!.attempt }))).toMatchObject({
      phase: "failed",
      failure: { code: "SESSION_ENDED" },
    });
  });

  it("a timer that fires after the end (a laptop that slept) renews at once, behind the skeleton", () => {
    const late = embedReducer(viewing, { type: "session-ended", renew: true });
    expect(late).toMatchObject({ attempt: 0, ended: true, renewal: { attempt: 1, phase: "loading" } });
  });

  it("a session that was not to be renewed ends with the portal's message", () => {
    expect(embedReducer(viewing, { type: "session-ended", renew: false })).toMatchObject({
      phase: "failed",
      failure: { code: "SESSION_ENDED", message: "" },
      ended: true,
    });
    const failed = run(message({ type: "workbook:error", code: "EACCES", message: "no" }));
    expect(embedReducer(failed, { type: "session-ended", renew: true })).toBe(failed);
  });

  it("an EINVAL of the current frame during a renewal reopens as before, dropping the renewal", () => {
    const renewing = embedReducer(viewing, renew);
    const reopened = apply(renewing, (s) => fromCurrent(s, einvalMessage));
    expect(reopened).toMatchObject({ attempt: 2, minted: 2, phase: "loading", renewal: null });
    // The dropped renewal's frame has nothing more to say.
    expect(embedReducer(reopened, { type: "message", message: loadedMessage, attempt: 1 })).toBe(reopened);
  });
});
