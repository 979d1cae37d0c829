/**
 * The browser side of Sigma's embedding protocol: the events the analytics frame posts to the portal
 * (`workbook:loaded`, `workbook:error`, ...), what the portal posts back, and the URL the frame is opened
 * with. The shapes are the types of Sigma's own `@sigmacomputing/embed-sdk`; its listener functions are
 * not used because they accept only Sigma's own hosts (decision 011).
 */
import type {
  UrlOnChangeEvent,
  WorkbookChartErrorEvent,
  WorkbookDataLoadedEvent,
  WorkbookErrorEvent,
  WorkbookFullScreenEvent,
  WorkbookLoadedEvent,
  WorkbookPageHeightEvent,
  WorkbookSelectedNodeEvent,
  WorkbookSelectedNodeIdUpdateEventName,
  WorkbookVariableOnChangeEvent,
  WorkbookVariablesUpdateEventName,
} from "@sigmacomputing/embed-sdk";

export type TEmbedVariables = Record<string, string>;

/** The frame's events the portal acts on. */
export type TEmbedMessage =
  | WorkbookLoadedEvent
  | WorkbookDataLoadedEvent
  | WorkbookErrorEvent
  | WorkbookPageHeightEvent
  | WorkbookVariableOnChangeEvent
  | WorkbookFullScreenEvent
  | UrlOnChangeEvent
  | WorkbookChartErrorEvent
  | WorkbookSelectedNodeEvent;

export type TEmbedSelection = Pick<WorkbookSelectedNodeEvent, "selectedNodeId" | "nodeType">;

/** `workbook:selectednodeid:update`, as the SDK's `workbookSelectedNodeIdUpdate` posts it. */
export type TSelectNodeMessage = {
  type: typeof WorkbookSelectedNodeIdUpdateEventName;
  selectedNodeId: string | null;
  nodeType: "element" | "page";
};

/** `workbook:variables:update`, as the SDK's `workbookVariablesUpdate` posts it. */
export type TVariablesUpdateMessage = {
  type: typeof WorkbookVariablesUpdateEventName;
  variables: TEmbedVariables;
};

/** Sanity bound for `pageHeight`: a frame claiming more is not believed. */
export const MAX_PAGE_HEIGHT = 50_000;

/** Sanity bound for texts the frame sends (error messages, URLs). */
const MAX_TEXT = 2_000;

type TMessageEventLike = Pick<MessageEvent, "data" | "origin" | "source">;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Control values, nested under `workbook` as Sigma sends them; anything but text values is dropped. */
function readVariables(data: Record<string, unknown>): TEmbedVariables {
  const source = isRecord(data.workbook) ? data.workbook.variables : undefined;
  if (!isRecord(source)) return {};
  return Object.fromEntries(
    Object.entries(source).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

const text = (value: unknown, fallback = ""): string =>
  typeof value === "string" ? value.slice(0, MAX_TEXT) : fallback;

/**
 * The embed message in `event`, or null when it must be ignored: only a message from the frame's own
 * window (`frameWindow`) and from the embed URL's origin is trusted. Any other page or frame can post to
 * the portal's window, so both checks are needed (the origin alone would trust a second frame of the same
 * service; the source alone would trust the frame after it navigated elsewhere).
 */
export function readEmbedMessage(
  event: TMessageEventLike,
  frameWindow: MessageEventSource | null | undefined,
  expectedOrigin: string,
): TEmbedMessage | null {
  if (!frameWindow || event.source !== frameWindow) return null;
  if (event.origin !== expectedOrigin || expectedOrigin === "null") return null;
  const data: unknown = event.data;
  if (!isRecord(data) || typeof data.type !== "string") return null;

  switch (data.type) {
    case "workbook:loaded":
    case "workbook:variables:onchange":
      return { type: data.type, workbook: { variables: readVariables(data) } };
    case "workbook:dataloaded":
      return { type: data.type };
    case "workbook:error":
      return {
        type: data.type,
        code: typeof data.code === "string" && data.code ? data.code : "UNKNOWN",
        message: text(data.message).slice(0, 500),
      };
    case "workbook:pageheight:onchange": {
      const height = data.pageHeight;
      if (typeof height !== "number" || !Number.isFinite(height) || height <= 0) return null;
      return { type: data.type, pageHeight: Math.min(Math.ceil(height), MAX_PAGE_HEIGHT) };
    }
    case "workbook:fullscreen:onchange":
      if (typeof data.fullScreen !== "boolean") return null;
      return { type: data.type, fullScreen: data.fullScreen };
    case "url:onchange":
      if (typeof data.url !== "string") return null;
      return { type: data.type, url: text(data.url) };
    case "workbook:chart:error":
      if (typeof data.nodeId !== "string") return null;
      return {
        type: data.type,
        code: text(data.code, "UNKNOWN") || "UNKNOWN",
        message: typeof data.message === "string" ? text(data.message) : undefined,
        nodeId: text(data.nodeId),
      };
    case "workbook:selectednodeid:onchange": {
      const { selectedNodeId, nodeType } = data;
      if (selectedNodeId !== null && typeof selectedNodeId !== "string") return null;
      if (nodeType !== null && nodeType !== "element" && nodeType !== "page") return null;
      return { type: data.type, selectedNodeId, nodeType };
    }
    default:
      return null;
  }
}

/**
 * The message that brings a new frame back to what the person had selected (a page or an element), or
 * null when there is nothing to restore.
 */
export function selectNodeMessage(selection: TEmbedSelection | null): TSelectNodeMessage | null {
  if (!selection || selection.selectedNodeId === null || selection.nodeType === null) return null;
  return {
    type: "workbook:selectednodeid:update",
    selectedNodeId: selection.selectedNodeId,
    nodeType: selection.nodeType,
  };
}

/**
 * Characters of an already-encoded control value: those `encodeURIComponent` leaves as they are, the commas
 * between values and the colons of `min:`/`max:` and `:null`, and `%` starting an escape (`%2C`, `%20`).
 */
const NOT_IN_ENCODED_VALUE = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-_.!~*'(),:%]/gu;

/**
 * A control value as it goes into the frame's URL, or null when it cannot. Sigma reports control values
 * already URL-encoded (`East,Midwest`, `Greg%20Humphrey,Xiaoyu%20Xu`, `min:1%2C000,max:3%2C000`) and reads
 * them back in the same form, so the value is kept exactly as reported: encoding it again would turn the
 * commas between values into commas inside one, and `%20` into a literal `%20`. Any character that cannot
 * be part of such a value (`&`, `#`, `=`, `+`, whitespace, quotes, non-ASCII, a `%` that starts no escape)
 * is encoded on its own, so a value can never add a parameter or a fragment to the URL, and means what it
 * said (`+` stays a plus, never a space). A value that cannot be encoded at all (a lone surrogate) is
 * dropped: the control keeps the workbook's default.
 */
export function controlValueParam(value: string): string | null {
  try {
    return value.replace(NOT_IN_ENCODED_VALUE, (char) => encodeURIComponent(char));
  } catch {
    return null;
  }
}

/**
 * The message that sets control values in a frame opened before the person changed them (a renewal under
 * way), or null when nothing changed. Values go in the form the frame reported them, as in the URL.
 */
export function variablesUpdateMessage(variables: TEmbedVariables | null): TVariablesUpdateMessage | null {
  if (!variables || Object.keys(variables).length === 0) return null;
  return { type: "workbook:variables:update", variables };
}

export type TEmbedFrame = { src: string; origin: string };

/**
 * The frame's URL and origin from the minted embed URL, or null for anything but an absolute http(s) URL
 * (a `javascript:` or `data:` URL must never reach an iframe). Adds UI parameters, which are not signed
 * and so safe to add: `:responsive_height=true` turns on the page-height event. `variables` (control
 * values the person had chosen before a re-mint) are passed as `<ControlId>=<value>`, as Sigma reads them
 * (`controlValueParam`); the analytics service checks them against what the person may see.
 */
export function embedFrame(embedUrl: string, variables: TEmbedVariables = {}): TEmbedFrame | null {
  let url: URL;
  try {
    url = new URL(embedUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  // Appended as text: the signed part of the URL is left exactly as the server minted it.
  const added: string[] = [];
  if (!url.searchParams.has(":responsive_height")) added.push(":responsive_height=true");
  for (const [name, value] of Object.entries(variables)) {
    if (!name || name.startsWith(":") || url.searchParams.has(name)) continue;
    const param = controlValueParam(value);
    if (param !== null) added.push(`${encodeURIComponent(name)}=${param}`);
  }
  if (added.length === 0) return { src: url.href, origin: url.origin };
  // Joined as text, not through `url.search`, which would re-encode some characters of the values (`'`).
  const base = url.href.slice(0, url.href.length - url.hash.length);
  const joiner = url.search ? "&" : base.endsWith("?") ? "" : "?";
  return { src: `${base}${joiner}${added.join("&")}${url.hash}`, origin: url.origin };
}
