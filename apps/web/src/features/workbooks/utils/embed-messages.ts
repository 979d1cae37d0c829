/**
 * The browser side of Sigma's embedding protocol: the events the analytics frame posts to the portal
 * (`workbook:loaded`, `workbook:error`, ...) and the URL the frame is opened with.
 */

export type TEmbedVariables = Record<string, string>;

export type TEmbedMessage =
  | { type: "workbook:loaded"; variables: TEmbedVariables }
  | { type: "workbook:dataloaded" }
  | { type: "workbook:error"; code: string; message: string }
  | { type: "workbook:pageheight:onchange"; pageHeight: number }
  | { type: "workbook:variables:onchange"; variables: TEmbedVariables };

/** Sanity bound for `pageHeight`: a frame claiming more is not believed. */
export const MAX_PAGE_HEIGHT = 50_000;

type TMessageEventLike = Pick<MessageEvent, "data" | "origin" | "source">;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Control values: Sigma nests them under `workbook`, the built-in analytics server sends them flat. */
function readVariables(data: Record<string, unknown>): TEmbedVariables {
  const source = isRecord(data.workbook) ? data.workbook.variables : data.variables;
  if (!isRecord(source)) return {};
  return Object.fromEntries(
    Object.entries(source).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

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
      return { type: data.type, variables: readVariables(data) };
    case "workbook:dataloaded":
      return { type: data.type };
    case "workbook:error":
      return {
        type: data.type,
        code: typeof data.code === "string" && data.code ? data.code : "UNKNOWN",
        message: typeof data.message === "string" ? data.message.slice(0, 500) : "",
      };
    case "workbook:pageheight:onchange": {
      const height = data.pageHeight;
      if (typeof height !== "number" || !Number.isFinite(height) || height <= 0) return null;
      return { type: data.type, pageHeight: Math.min(Math.ceil(height), MAX_PAGE_HEIGHT) };
    }
    case "workbook:variables:onchange":
      return { type: data.type, variables: readVariables(data) };
    default:
      return null;
  }
}

export type TEmbedFrame = { src: string; origin: string };

/**
 * The frame's URL and origin from the minted embed URL, or null for anything but an absolute http(s) URL
 * (a `javascript:` or `data:` URL must never reach an iframe). Adds UI parameters, which are not signed
 * and so safe to add: `:responsive_height=true` turns on the page-height event. `variables` (control
 * values the person had chosen before a re-mint) are passed as `<ControlId>=<value>`, as Sigma reads them;
 * the analytics service checks them against what the person may see.
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
    if (name && !name.startsWith(":") && !url.searchParams.has(name)) {
      added.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    }
  }
  if (added.length > 0) url.search = `${url.search ? `${url.search}&` : "?"}${added.join("&")}`;
  return { src: url.toString(), origin: url.origin };
}
