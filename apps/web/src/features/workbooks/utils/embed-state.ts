import { FRAME_SILENT, FRAME_TIMEOUT, SESSION_ENDED } from "./embed-errors";
import type { TFrameFailure } from "./embed-errors";
import type { TEmbedMessage, TEmbedSelection, TEmbedVariables } from "./embed-messages";

/**
 * The life of one workbook view's analytics frame.
 *
 * - `attempt` is the key the current frame's embed URL was minted under; every new URL (a reopen or a
 *   renewal) is minted under the next number (`minted`), so no two frames ever share a one-time URL.
 * - An `EINVAL` error (the URL expired, was already used, or is malformed) re-mints once on its own; a
 *   second `EINVAL` before the frame has loaded again, or any other error, shows the failure with
 *   'Try again'. A successful load earns the next silent re-mint.
 * - Renewal: the analytics service ends a frame's session at its token's `exp` with a page of its own and
 *   no event, so the view renews the frame shortly before (`renew`, timed by embed-session.ts). The next
 *   frame is minted and opened out of sight with the control values and selection of the current one; the
 *   current frame stays on screen, usable, until the next one has loaded, shown its selection and its data
 *   (or `SWAP_WAIT_MS` after loading, whichever is first), and the two are then swapped in one render. Only
 *   when the current session has already ended (`ended`: a late timer, a slow renewal) is the skeleton shown
 *   over it meanwhile, and only then do the load timers run for the next frame. A renewal that fails (its
 *   mint, an error of its frame, its load timers) is not tried again: the current frame stays until its
 *   session ends, then the view says so with 'Try again'. A frame that reaches its end unrenewed says the
 *   same.
 * - Control values the frame reports are kept so that a new frame opens with what the person had chosen;
 *   so is the page or element last selected (`workbook:selectednodeid:onchange`), which the view posts back
 *   to the new frame (`workbook:selectednodeid:update`) once it has loaded.
 * - `workbook:fullscreen:onchange` makes the frame cover the window while an element is full screen.
 * - `workbook:chart:error` is one element's failure, shown by the frame in that element: it never fails
 *   the view.
 */
export type TEmbedState = {
  attempt: number;
  /** The highest mint key used so far. */
  minted: number;
  phase: "loading" | "loaded" | "failed";
  failure: TFrameFailure | null;
  /** The silent EINVAL re-mint has been used since the last successful load. */
  reminted: boolean;
  /** Content height from `workbook:pageheight:onchange`, for the current frame. */
  pageHeight: number | null;
  /** The latest control values the frame reported. */
  variables: TEmbedVariables;
  /** The control values the current frame was opened with. */
  openedWith: TEmbedVariables;
  /** An element of the current frame is full screen (`workbook:fullscreen:onchange`). */
  fullScreen: boolean;
  /** The frame's own address (`url:onchange`), never with a token. */
  url: string | null;
  /** The page or element last selected in the frame. */
  selection: TEmbedSelection | null;
  /** The selection to restore in the current frame once it has loaded (after a re-mint). */
  restore: TEmbedSelection | null;
  /**
   * Control values to post to the current frame once it has loaded (`workbook:variables:update`): those the
   * person changed in the previous frame while this one was being prepared.
   */
  update: TEmbedVariables | null;
  /** Elements of the current frame that reported `workbook:chart:error`. */
  chartErrors: string[];
  /** The next frame, while a renewal is under way. */
  renewal: TEmbedRenewal | null;
  /** The current frame's renewal failed: it is not tried again. */
  renewalFailed: boolean;
  /** The current frame's session has ended: what it shows now is the analytics service's own notice. */
  ended: boolean;
};

/** The next frame of a renewal, loading out of sight. */
export type TEmbedRenewal = {
  attempt: number;
  phase: "loading" | "loaded";
  openedWith: TEmbedVariables;
  /** The selection the next frame is asked to show once loaded. */
  selection: TEmbedSelection | null;
  /** Asked to show `selection`, not yet confirmed by the frame. */
  selecting: boolean;
  /** The next frame reported `workbook:dataloaded` since it loaded (or last changed its selection). */
  dataLoaded: boolean;
  /** Shown as soon as the current frame can give way (see `settle`). */
  ready: boolean;
  pageHeight: number | null;
  url: string | null;
  chartErrors: string[];
};

/** Which frame an event came from: the current one, or the next one of a renewal (by its mint key). */
type TFrameRef = { attempt?: number };

export type TEmbedAction =
  | ({ type: "message"; message: TEmbedMessage } & TFrameRef)
  /** 'Try again' after a failure (portal API or frame). */
  | { type: "retry" }
  /** The frame did not report `workbook:loaded` in time. */
  | ({ type: "timeout" } & TFrameRef)
  /**
   * The frame's page loaded but never spoke: the browser's error page (service unreachable) or a page of
   * the analytics service without a code ("You don't have permission to access this page.").
   */
  | ({ type: "silent" } & TFrameRef)
  /** Time to renew the current frame. */
  | { type: "renew" }
  /** The next frame's URL could not be minted (or the answer had none). */
  | { type: "renewal-failed"; attempt: number }
  /** `SWAP_WAIT_MS` after the next frame loaded: show it even without `workbook:dataloaded`. */
  | { type: "swap"; attempt: number }
  /** The current frame's session has ended; `renew` when it was meant to be renewed (a late timer). */
  | { type: "session-ended"; renew: boolean };

export const initialEmbedState: TEmbedState = {
  attempt: 0,
  minted: 0,
  phase: "loading",
  failure: null,
  reminted: false,
  pageHeight: null,
  variables: {},
  openedWith: {},
  fullScreen: false,
  url: null,
  selection: null,
  restore: null,
  update: null,
  chartErrors: [],
  renewal: null,
  renewalFailed: false,
  ended: false,
};

const sameSelection = (a: TEmbedSelection | null, b: TEmbedSelection | null) =>
  a?.selectedNodeId === b?.selectedNodeId && a?.nodeType === b?.nodeType;

const restorable = (selection: TEmbedSelection | null) =>
  selection !== null && selection.selectedNodeId !== null && selection.nodeType !== null;

/** The values of `latest` that differ from `openedWith` (changed after a frame was opened with them). */
function changedSince(openedWith: TEmbedVariables, latest: TEmbedVariables): TEmbedVariables | null {
  const changed = Object.entries(latest).filter(([name, value]) => openedWith[name] !== value);
  return changed.length > 0 ? Object.fromEntries(changed) : null;
}

/** A new frame with a new URL, opened with the control values chosen so far. */
function reopen(state: TEmbedState, reminted: boolean): TEmbedState {
  return {
    ...state,
    attempt: state.minted + 1,
    minted: state.minted + 1,
    phase: "loading",
    failure: null,
    reminted,
    pageHeight: null,
    openedWith: state.variables,
    fullScreen: false,
    url: null,
    restore: state.selection,
    update: null,
    chartErrors: [],
    renewal: null,
    renewalFailed: false,
    ended: false,
  };
}

function startRenewal(state: TEmbedState): TEmbedState {
  return {
    ...state,
    minted: state.minted + 1,
    renewal: {
      attempt: state.minted + 1,
      phase: "loading",
      openedWith: state.variables,
      selection: state.selection,
      selecting: false,
      dataLoaded: false,
      ready: false,
      pageHeight: null,
      url: null,
      chartErrors: [],
    },
  };
}

const sessionEnded = (state: TEmbedState): TEmbedState => ({
  ...state,
  phase: "failed",
  failure: { code: SESSION_ENDED, message: "" },
  renewal: null,
  ended: true,
});

function renewalFailed(state: TEmbedState): TEmbedState {
  const failed = { ...state, renewal: null, renewalFailed: true };
  return state.ended ? sessionEnded(failed) : failed;
}

/**
 * The swap, once the next frame is ready and the current one can give way: not while an element of the
 * current frame is full screen (the person is looking at it), unless its session has ended.
 */
function settle(state: TEmbedState): TEmbedState {
  const next = state.renewal;
  if (!next || next.phase !== "loaded") return state;
  if (!(state.ended || next.ready) || (state.fullScreen && !state.ended)) return state;
  return {
    ...state,
    attempt: next.attempt,
    phase: "loaded",
    failure: null,
    reminted: false,
    pageHeight: next.pageHeight,
    openedWith: next.openedWith,
    fullScreen: false,
    url: next.url,
    // Asked again when the person selected something else meanwhile, or the frame never confirmed.
    restore: next.selecting || !sameSelection(next.selection, state.selection) ? state.selection : null,
    update: changedSince(next.openedWith, state.variables),
    chartErrors: next.chartErrors,
    renewal: null,
    renewalFailed: false,
    ended: false,
  };
}

/** An event of the next frame of a renewal. */
function nextFrameMessage(state: TEmbedState, next: TEmbedRenewal, message: TEmbedMessage): TEmbedState {
  const withNext = (changes: Partial<TEmbedRenewal>) => {
    const renewal = { ...next, ...changes };
    renewal.ready = renewal.phase === "loaded" && !renewal.selecting && renewal.dataLoaded;
    return settle({ ...state, renewal });
  };
  switch (message.type) {
    case "workbook:loaded":
      return next.phase === "loaded"
        ? state
        : withNext({ phase: "loaded", selecting: restorable(next.selection), dataLoaded: false });
    case "workbook:dataloaded":
      return withNext({ dataLoaded: true });
    case "workbook:selectednodeid:onchange":
      // A new page loads its own data: wait for that too.
      return next.selecting ? withNext({ selecting: false, dataLoaded: false }) : state;
    case "workbook:pageheight:onchange":
      return withNext({ pageHeight: message.pageHeight });
    case "url:onchange":
      return withNext({ url: message.url });
    case "workbook:chart:error":
      return next.chartErrors.includes(message.nodeId)
        ? state
        : withNext({ chartErrors: [...next.chartErrors, message.nodeId] });
    case "workbook:error":
      return renewalFailed(state);
    // The person cannot use the next frame yet: what it reports of its controls or full screen is its own
    // opening, not a choice.
    case "workbook:variables:onchange":
    case "workbook:fullscreen:onchange":
      return state;
  }
}

export function embedReducer(state: TEmbedState, action: TEmbedAction): TEmbedState {
  const from = "attempt" in action ? action.attempt : undefined;
  const next = state.renewal !== null && from === state.renewal.attempt ? state.renewal : null;
  const current = from === undefined || from === state.attempt;

  switch (action.type) {
    case "retry":
      return reopen(state, false);
    case "renew":
      return state.phase === "loaded" && !state.renewal && !state.renewalFailed ? startRenewal(state) : state;
    case "renewal-failed":
      return next ? renewalFailed(state) : state;
    case "swap":
      return next?.phase === "loaded" ? settle({ ...state, renewal: { ...next, ready: true } }) : state;
    case "session-ended":
      if (state.phase === "failed") return state;
      if (state.renewal) return settle({ ...state, ended: true });
      if (action.renew && state.phase === "loaded" && !state.renewalFailed) {
        return startRenewal({ ...state, ended: true });
      }
      return sessionEnded(state);
    case "timeout":
    case "silent":
      if (next) return next.phase === "loading" ? renewalFailed(state) : state;
      return current && state.phase === "loading"
        ? {
            ...state,
            phase: "failed",
            failure: { code: action.type === "timeout" ? FRAME_TIMEOUT : FRAME_SILENT, message: "" },
          }
        : state;
    case "message":
      break;
  }

  const { message } = action;
  if (next) return nextFrameMessage(state, next, message);
  // A frame that is neither (one just replaced) has nothing more to say.
  if (!current) return state;
  switch (message.type) {
    case "workbook:loaded":
      return {
        ...state,
        phase: "loaded",
        failure: null,
        reminted: false,
        variables:
          Object.keys(message.workbook.variables).length > 0 ? message.workbook.variables : state.variables,
      };
    case "workbook:variables:onchange":
      return { ...state, variables: { ...state.variables, ...message.workbook.variables } };
    case "workbook:fullscreen:onchange":
      return state.fullScreen === message.fullScreen
        ? state
        : settle({ ...state, fullScreen: message.fullScreen });
    case "url:onchange":
      return { ...state, url: message.url };
    case "workbook:selectednodeid:onchange":
      return {
        ...state,
        selection: { selectedNodeId: message.selectedNodeId, nodeType: message.nodeType },
        restore: null,
      };
    case "workbook:chart:error":
      return state.chartErrors.includes(message.nodeId)
        ? state
        : { ...state, chartErrors: [...state.chartErrors, message.nodeId] };
    case "workbook:pageheight:onchange":
      return state.pageHeight === message.pageHeight ? state : { ...state, pageHeight: message.pageHeight };
    case "workbook:error":
      if (state.phase === "failed") return state;
      if (message.code === "EINVAL" && !state.reminted) return reopen(state, true);
      return { ...state, phase: "failed", failure: { code: message.code, message: message.message } };
    case "workbook:dataloaded":
      return state;
  }
}
