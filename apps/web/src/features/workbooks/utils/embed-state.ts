import type { TFrameFailure } from "./embed-errors";
import type { TEmbedMessage, TEmbedSelection, TEmbedVariables } from "./embed-messages";

/**
 * The life of one workbook view's analytics frame.
 *
 * - `attempt` is part of the key the embed URL is minted under: raising it mints a new one-time URL and
 *   opens a new frame with it.
 * - An `EINVAL` error (the URL expired, was already used, or the frame's session ran out) re-mints once on
 *   its own; a second `EINVAL` before the frame has loaded again, or any other error, shows the failure with
 *   'Try again'. A successful load earns the next silent re-mint (sessions end every few minutes).
 * - Control values the frame reports are kept so that a new frame opens with what the person had chosen;
 *   so is the page or element last selected (`workbook:selectednodeid:onchange`), which the view posts back
 *   to the new frame (`workbook:selectednodeid:update`) once it has loaded.
 * - `workbook:fullscreen:onchange` makes the frame cover the window while an element is full screen.
 * - `workbook:chart:error` is one element's failure, shown by the frame in that element: it never fails
 *   the view.
 */
export type TEmbedState = {
  attempt: number;
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
  /** Elements of the current frame that reported `workbook:chart:error`. */
  chartErrors: string[];
};

export type TEmbedAction =
  | { type: "message"; message: TEmbedMessage }
  /** 'Try again' after a failure (portal API or frame). */
  | { type: "retry" }
  /** The frame did not report `workbook:loaded` in time. */
  | { type: "timeout" }
  /** The frame's page loaded but never spoke: an error page (service unreachable) or not a workbook. */
  | { type: "silent" };

export const initialEmbedState: TEmbedState = {
  attempt: 0,
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
  chartErrors: [],
};

/** A new frame with a new URL, opened with the control values chosen so far. */
function reopen(state: TEmbedState, reminted: boolean): TEmbedState {
  return {
    ...state,
    attempt: state.attempt + 1,
    phase: "loading",
    failure: null,
    reminted,
    pageHeight: null,
    openedWith: state.variables,
    fullScreen: false,
    url: null,
    restore: state.selection,
    chartErrors: [],
  };
}

export function embedReducer(state: TEmbedState, action: TEmbedAction): TEmbedState {
  switch (action.type) {
    case "retry":
      return reopen(state, false);
    case "timeout":
      return state.phase === "loading"
        ? { ...state, phase: "failed", failure: { code: "TIMEOUT", message: "" } }
        : state;
    case "silent":
      return state.phase === "loading"
        ? { ...state, phase: "failed", failure: { code: "UNREACHABLE", message: "" } }
        : state;
    case "message":
      break;
  }

  const { message } = action;
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
      return state.fullScreen === message.fullScreen ? state : { ...state, fullScreen: message.fullScreen };
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
