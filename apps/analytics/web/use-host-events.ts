import { useCallback, useEffect, useRef, type RefObject } from "react";
import type { EmbedBoot, PageData } from "../src/embed/boot.ts";
import type { Messenger, TNodeType } from "./messages.ts";

/** `workbook:loaded`, once; and the token must not linger in the frame's URL or history. */
export function useWorkbookLoaded(boot: EmbedBoot, messenger: Messenger) {
  useEffect(() => {
    window.history.replaceState(null, "", boot.cleanUrl);
    messenger.post({
      type: "workbook:loaded",
      workbook: { variables: boot.initialData?.variables ?? boot.initialVariables },
    });
  }, [boot, messenger]);
}

/** Inbound events from the host page (what the SDK's mutation functions send). */
export function useHostRequests(
  boot: EmbedBoot,
  messenger: Messenger,
  {
    currentVariablesRef,
    change,
    select,
    toggleFullscreen,
  }: {
    currentVariablesRef: RefObject<Record<string, string>>;
    change: (updates: Record<string, string>) => void;
    select: (nodeId: string | null, nodeType: TNodeType, fromHost?: boolean) => void;
    toggleFullscreen: (nodeId: string | null) => void;
  },
) {
  useEffect(
    () =>
      messenger.listen((message) => {
        switch (message.type) {
          case "workbook:variables:update": {
            const updates = Object.fromEntries(
              Object.entries(message.variables).filter(([k]) =>
                boot.workbook.controls.some((c) => c.id === k),
              ),
            );
            change(updates);
            break;
          }
          case "workbook:variables:list":
            messenger.post({ type: "workbook:variables:current", variables: currentVariablesRef.current });
            break;
          case "workbook:fullscreen:update":
            toggleFullscreen(message.nodeId);
            break;
          case "workbook:selectednodeid:update":
            select(message.selectedNodeId, message.nodeType, true);
            break;
        }
      }),
    [messenger, change, select, toggleFullscreen, boot.workbook.controls, currentVariablesRef],
  );
}

/** `workbook:chart:error` once per element that failed in a result, and for a chart that could not be drawn. */
export function useChartErrors(result: PageData | undefined, messenger: Messenger) {
  useEffect(() => {
    if (!result) return;
    for (const [nodeId, data] of Object.entries(result.elements)) {
      if (data.error)
        messenger.post({
          type: "workbook:chart:error",
          code: data.code ?? "UNKNOWN",
          message: data.error,
          nodeId,
        });
    }
  }, [result, messenger]);
  const onChartError = useCallback(
    (nodeId: string, message: string) =>
      messenger.post({ type: "workbook:chart:error", code: "UNKNOWN", message, nodeId }),
    [messenger],
  );
  return onChartError;
}

/**
 * Page height for hosts that size the frame to the content (:responsive_height=true). Reported from the
 * first render with data (or its error), so the host sizes the frame once, not first to the skeleton.
 */
export function usePageHeight(boot: EmbedBoot, messenger: Messenger, shown: boolean) {
  const lastHeight = useRef(0);
  useEffect(() => {
    if (!boot.responsiveHeight || !shown) return;
    // The content's own height: the document's scrollHeight never drops below the frame's height, so a
    // host that grew the frame would never see the page get shorter again.
    const root = document.querySelector<HTMLElement>(".wb-root") ?? document.body;
    const report = () => {
      const h = Math.ceil(root.getBoundingClientRect().height);
      if (h !== lastHeight.current) {
        lastHeight.current = h;
        messenger.post({ type: "workbook:pageheight:onchange", pageHeight: h });
      }
    };
    // A new observer reports the current size at once, then every change.
    const observer = new ResizeObserver(report);
    observer.observe(root);
    return () => observer.disconnect();
  }, [boot.responsiveHeight, messenger, shown]);
}
