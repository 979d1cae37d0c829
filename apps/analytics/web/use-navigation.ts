import { useCallback, useEffect, useRef, useState } from "react";
import type { EmbedBoot } from "../src/embed/boot.ts";
import type { Messenger, TNodeType } from "./messages.ts";

/**
 * Where the person is in the workbook: the page shown, the element selected and the one in full screen,
 * changed by the page or by the host, and told to the host (`url:onchange`,
 * `workbook:selectednodeid:onchange`, `workbook:fullscreen:onchange`).
 */
export function useNavigation(boot: EmbedBoot, messenger: Messenger) {
  const [pageId, setPageId] = useState(boot.pageId);
  const [fullscreen, setFullscreen] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  /** An element the host asked to select: brought into view and focused once its page shows. */
  const [reveal, setReveal] = useState<{ id: string } | null>(null);
  const revealed = useRef<{ id: string } | null>(null);
  const page = boot.workbook.pages.find((p) => p.id === pageId) ?? boot.workbook.pages[0];

  // `url:onchange`: the embed's path, without query (so never the token), on load and whenever the page
  // shown changes.
  useEffect(() => {
    const url = new URL(boot.cleanUrl, window.location.origin);
    if (pageId !== boot.pageId) {
      url.pathname = `${url.pathname.replace(/\/page\/[^/]*$/, "")}/page/${encodeURIComponent(pageId)}`;
    }
    if (url.pathname !== window.location.pathname) window.history.replaceState(null, "", url);
    messenger.post({ type: "url:onchange", url: url.pathname });
  }, [boot, pageId, messenger]);

  // `workbook:fullscreen:onchange` whenever an element enters or leaves full screen (not on load).
  const fullscreenPosted = useRef(false);
  useEffect(() => {
    if (!fullscreenPosted.current && fullscreen === null) return;
    fullscreenPosted.current = true;
    messenger.post({ type: "workbook:fullscreen:onchange", fullScreen: fullscreen !== null });
  }, [fullscreen, messenger]);
  useEffect(() => {
    if (fullscreen === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setFullscreen(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [fullscreen]);

  const pageOf = useCallback(
    (elementId: string) => boot.workbook.pages.find((p) => p.elements.some((e) => e.id === elementId)),
    [boot],
  );

  /** Selects a page or an element (showing its page) and tells the host (`workbook:selectednodeid:onchange`). */
  const select = useCallback(
    (nodeId: string | null, nodeType: TNodeType, fromHost = false) => {
      if (nodeType === "page") {
        if (nodeId !== null && !boot.workbook.pages.some((p) => p.id === nodeId)) return;
        if (nodeId !== null) setPageId(nodeId);
        setSelected(null);
      } else {
        const owner = nodeId === null ? undefined : pageOf(nodeId);
        if (nodeId !== null && !owner) return;
        if (owner) setPageId(owner.id);
        setSelected(nodeId);
        if (fromHost && nodeId !== null) setReveal({ id: nodeId });
      }
      setFullscreen((f) => (nodeType === "page" ? null : f));
      messenger.post({ type: "workbook:selectednodeid:onchange", selectedNodeId: nodeId, nodeType });
    },
    [boot, pageOf, messenger],
  );

  /** Maximises the element, or restores it when it is the one maximised (`null`: restores any). */
  const toggleFullscreen = useCallback(
    (nodeId: string | null) => {
      if (nodeId === null) return setFullscreen(null);
      const owner = pageOf(nodeId);
      if (!owner) return;
      setPageId(owner.id);
      setFullscreen((current) => (current === nodeId ? null : nodeId));
    },
    [pageOf],
  );

  useEffect(() => {
    if (reveal === null || revealed.current === reveal) return;
    const el = document.querySelector<HTMLElement>(`section[data-element-id="${CSS.escape(reveal.id)}"]`);
    if (!el) return;
    revealed.current = reveal;
    el.scrollIntoView({ block: "nearest" });
    el.focus({ preventScroll: true });
  }, [reveal, pageId]);

  return { pageId, page, fullscreen, selected, select, toggleFullscreen };
}
