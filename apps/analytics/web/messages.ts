/**
 * postMessage with the parent page, only ever to/from an allowed parent origin (never "*"). The messages
 * are Sigma's, typed by Sigma's own `@sigmacomputing/embed-sdk` (types only: decision 011).
 */
import type {
  UrlOnChangeEvent,
  WorkbookChartErrorEvent,
  WorkbookCurrentVariablesEvent,
  WorkbookDataLoadedEvent,
  WorkbookErrorEvent,
  WorkbookFullScreenEvent,
  WorkbookFullscreenUpdateEventName,
  WorkbookLoadedEvent,
  WorkbookPageHeightEvent,
  WorkbookSelectedNodeEvent,
  WorkbookSelectedNodeIdUpdateEventName,
  WorkbookVariableOnChangeEvent,
  WorkbookVariablesListEventName,
  WorkbookVariablesUpdateEventName,
} from "@sigmacomputing/embed-sdk";

export function resolveParentOrigin(allowed: readonly string[]): string | undefined {
  if (window.parent === window) return undefined;
  const candidates: string[] = [];
  try {
    const ancestors = window.location.ancestorOrigins;
    if (ancestors && ancestors.length > 0 && ancestors[0]) candidates.push(ancestors[0]);
  } catch {
    // not supported
  }
  try {
    if (document.referrer) candidates.push(new URL(document.referrer).origin);
  } catch {
    // no referrer
  }
  const match = candidates.find((o) => allowed.includes(o));
  if (match) return match;
  return candidates.length === 0 && allowed.length === 1 ? allowed[0] : undefined;
}

/** Everything the frame posts to its host, in the SDK's shapes. */
export type OutboundMessage =
  | WorkbookLoadedEvent
  | WorkbookDataLoadedEvent
  | WorkbookErrorEvent
  | WorkbookPageHeightEvent
  | WorkbookVariableOnChangeEvent
  | WorkbookCurrentVariablesEvent
  | WorkbookFullScreenEvent
  | WorkbookSelectedNodeEvent
  | WorkbookChartErrorEvent
  | UrlOnChangeEvent;

export type TNodeType = "element" | "page";

/**
 * What the host may ask of the frame: the messages the SDK's mutation functions post
 * (`workbookVariablesUpdate`, `workbookVariablesList`, `workbookFullscreenUpdate`,
 * `workbookSelectedNodeIdUpdate`). The SDK exports their names but not their shapes; these are the shapes
 * its mutation functions send.
 */
export type InboundMessage =
  | { type: typeof WorkbookVariablesUpdateEventName; variables: Record<string, string> }
  | { type: typeof WorkbookVariablesListEventName }
  | { type: typeof WorkbookFullscreenUpdateEventName; nodeId: string | null }
  | {
      type: typeof WorkbookSelectedNodeIdUpdateEventName;
      selectedNodeId: string | null;
      nodeType: TNodeType;
    };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The inbound message in `data`, or null for anything malformed or unknown (ignored). */
export function readInbound(data: unknown): InboundMessage | null {
  if (!isRecord(data)) return null;
  switch (data.type) {
    case "workbook:variables:update": {
      if (!isRecord(data.variables)) return null;
      const variables = Object.fromEntries(
        Object.entries(data.variables).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
      return { type: data.type, variables };
    }
    case "workbook:variables:list":
      return { type: data.type };
    case "workbook:fullscreen:update":
      if (data.nodeId !== null && typeof data.nodeId !== "string") return null;
      return { type: data.type, nodeId: data.nodeId };
    case "workbook:selectednodeid:update":
      if (data.selectedNodeId !== null && typeof data.selectedNodeId !== "string") return null;
      if (data.nodeType !== "element" && data.nodeType !== "page") return null;
      return { type: data.type, selectedNodeId: data.selectedNodeId, nodeType: data.nodeType };
    default:
      return null;
  }
}

export function createMessenger(allowed: readonly string[]) {
  const target = resolveParentOrigin(allowed);
  return {
    target,
    post(message: OutboundMessage) {
      // Marks let a profiler see when each event left (e.g. the bench's breakdown).
      performance.mark(`wb:${message.type}`);
      if (target) window.parent.postMessage(message, target);
    },
    /** Inbound messages from the parent window at an allowed origin. */
    listen(handler: (message: InboundMessage) => void): () => void {
      const onMessage = (event: MessageEvent) => {
        if (event.source !== window.parent || !target || event.origin !== target) return;
        const message = readInbound(event.data);
        if (message) handler(message);
      };
      window.addEventListener("message", onMessage);
      return () => window.removeEventListener("message", onMessage);
    },
  };
}

export type Messenger = ReturnType<typeof createMessenger>;
