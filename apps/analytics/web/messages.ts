/** postMessage with the parent page, only ever to/from an allowed parent origin (never "*"). */

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

export type OutboundMessage =
  | { type: "workbook:loaded"; workbook: { variables: Record<string, string> } }
  | { type: "workbook:dataloaded" }
  | { type: "workbook:error"; code: string; message: string }
  | { type: "workbook:pageheight:onchange"; pageHeight: number }
  | { type: "workbook:variables:onchange"; variables: Record<string, string> }
  | { type: "workbook:variables:current"; variables: Record<string, string> };

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
    listen(handler: (data: { type?: unknown; variables?: unknown }) => void): () => void {
      const onMessage = (event: MessageEvent) => {
        if (event.source !== window.parent || !target || event.origin !== target) return;
        if (typeof event.data !== "object" || event.data === null) return;
        handler(event.data as { type?: unknown; variables?: unknown });
      };
      window.addEventListener("message", onMessage);
      return () => window.removeEventListener("message", onMessage);
    },
  };
}
