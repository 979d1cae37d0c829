import { TriangleAlertIcon } from "lucide-react";
import { useId, useMemo, useReducer, useRef, useState } from "react";
import type { ReactNode } from "react";

import { workbookLabel } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { useEmbedUrl } from "../api/get-embed-url";
import { frameFailureText } from "../utils/embed-errors";
import { embedFrame } from "../utils/embed-messages";
import type { TEmbedFrame } from "../utils/embed-messages";
import { embedReducer, initialEmbedState } from "../utils/embed-state";
import type { TEmbedState } from "../utils/embed-state";
import {
  useFrameLoads,
  useFrameMessages,
  useFramePosts,
  useMintFailures,
  useSessionTimers,
} from "../utils/use-embed-frames";
import type { TEmbedQuery } from "../utils/use-embed-frames";
import { EmbedProblem, EmbedSkeleton } from "./embed-panels";

export const NO_EMBED_DATA = "No embed data available.";

let mounts = 0;
/** A new value per mounted view: part of the mint key, so no view ever gets another view's (used) URL. */
const nextMount = () => `m${++mounts}`;

export type TEmbedViewState = "minting" | "loading" | "loaded" | "failed" | "error" | "empty";

/** What the view shows over (or instead of) its frame, and its state for the page and the tests. */
function embedView(
  embed: TEmbedQuery,
  frame: TEmbedFrame | null,
  state: TEmbedState,
  retry: () => void,
): { view: TEmbedViewState; overlay: ReactNode } {
  if (embed.isPending) return { view: "minting", overlay: <EmbedSkeleton /> };
  if (embed.isError) {
    return {
      view: "error",
      overlay: (
        <EmbedProblem
          title="This workbook could not be opened."
          icon={<TriangleAlertIcon className="size-6" />}
          onRetry={retry}
        >
          <p>{embed.error.message}</p>
        </EmbedProblem>
      ),
    };
  }
  if (!frame) return { view: "empty", overlay: <EmbedProblem title={NO_EMBED_DATA} onRetry={retry} /> };
  if (state.phase === "failed") {
    const text = frameFailureText(state.failure ?? { code: "UNKNOWN", message: "" });
    return {
      view: "failed",
      overlay: (
        <EmbedProblem title={text.title} icon={<TriangleAlertIcon className="size-6" />} onRetry={retry}>
          <p>{text.detail}</p>
        </EmbedProblem>
      ),
    };
  }
  // `ended`: the current frame now shows the analytics service's "Session expired" page, which must not
  // be left on screen while the next frame loads.
  if (state.phase === "loading" || state.ended) return { view: "loading", overlay: <EmbedSkeleton /> };
  return { view: "loaded", overlay: null };
}

const heightStyle = (pageHeight: number | null) =>
  pageHeight === null ? undefined : { height: `max(calc(100dvh - 90px), ${pageHeight}px)` };

/**
 * The current frame, then the next one of a renewal, as one keyed list: the swap only drops the first,
 * and the next frame's element stays where it is (moving an iframe in the document would reload it).
 * The next frame is laid out like the current one, so its charts measure their real size, but it is
 * transparent, inert and hidden from assistive technology until the swap.
 */
function frameElements({
  label,
  state,
  shown,
  nextFrame,
  onFrameLoad,
}: {
  label: string;
  state: TEmbedState;
  shown: TEmbedFrame | null;
  nextFrame: TEmbedFrame | null;
  onFrameLoad: (src: string) => void;
}): ReactNode[] {
  const { attempt, renewal } = state;
  const elements: ReactNode[] = [];
  if (shown) {
    elements.push(
      <iframe
        key={shown.src}
        data-embed-key={attempt}
        src={shown.src}
        title={`${label} workbook`}
        allow="camera; microphone; clipboard-write; fullscreen"
        onLoad={() => onFrameLoad(shown.src)}
        data-fullscreen={state.fullScreen ? "true" : undefined}
        className={
          state.fullScreen
            ? "fixed inset-0 z-50 block h-dvh w-full border-0"
            : "block h-[calc(100dvh-90px)] w-full border-0"
        }
        style={state.fullScreen ? undefined : heightStyle(state.pageHeight)}
      />,
    );
  }
  if (shown && nextFrame && renewal) {
    elements.push(
      <iframe
        key={nextFrame.src}
        data-embed-key={renewal.attempt}
        src={nextFrame.src}
        title={`${label} workbook, next session`}
        allow="camera; microphone; clipboard-write; fullscreen"
        onLoad={() => onFrameLoad(nextFrame.src)}
        aria-hidden="true"
        inert
        tabIndex={-1}
        data-renewal="true"
        className="pointer-events-none absolute inset-x-0 top-0 block h-[calc(100dvh-90px)] w-full border-0 opacity-0"
        style={heightStyle(renewal.pageHeight)}
      />,
    );
  }
  return elements;
}

/**
 * One workbook in the analytics frame. Each mount, retry and renewal mints a new one-time URL (never
 * cached); a frame is trusted only through messages from its own window at its embed URL's origin.
 * Skeleton until `workbook:loaded`; the frame's height follows `workbook:pageheight:onchange`, never less
 * than the viewport below the 90px header; an EINVAL error re-mints once by itself; the frame is renewed
 * before its session ends, out of sight (embed-state.ts).
 */
export function WorkbookEmbed({ workbook, clientId }: { workbook: TWorkbook; clientId: number | null }) {
  const name = workbook.workbook_name;
  const label = workbookLabel(name);
  const titleId = useId();
  const [state, dispatch] = useReducer(embedReducer, initialEmbedState);
  const [mount] = useState(nextMount);
  const { attempt, renewal, openedWith } = state;
  const embed = useEmbedUrl(name, clientId, `${mount}.${attempt}`);
  // After the swap the current frame's key is the renewal's: the same query, so the same URL and frame.
  const nextEmbed = useEmbedUrl(name, clientId, `${mount}.${renewal?.attempt ?? "next"}`, renewal !== null);
  const sectionRef = useRef<HTMLElement>(null);

  const embedUrl = embed.data;
  const frame = useMemo(() => (embedUrl ? embedFrame(embedUrl, openedWith) : null), [embedUrl, openedWith]);
  const nextUrl = renewal ? nextEmbed.data : undefined;
  const nextOpenedWith = renewal?.openedWith;
  const nextFrame = useMemo(
    () => (nextUrl && nextOpenedWith ? embedFrame(nextUrl, nextOpenedWith) : null),
    [nextUrl, nextOpenedWith],
  );

  useFrameMessages(sectionRef, dispatch);
  useFramePosts(sectionRef, dispatch, state, frame, nextFrame?.src);
  const onFrameLoad = useFrameLoads(dispatch, state, frame?.src, nextFrame?.src);
  useSessionTimers(dispatch, state, embedUrl, embed.dataUpdatedAt);
  useMintFailures(dispatch, renewal, embed, nextEmbed, nextFrame, clientId);

  const { view, overlay } = embedView(embed, frame, state, () => dispatch({ type: "retry" }));
  const shown = frame !== null && !embed.isPending && state.phase !== "failed" ? frame : null;
  return (
    <section
      ref={sectionRef}
      aria-labelledby={titleId}
      aria-busy={view === "minting" || view === "loading"}
      data-embed-state={view}
      className="relative -mx-4 -my-6 min-h-[calc(100dvh-90px)] bg-white sm:-mx-8 sm:-my-8"
    >
      <h1 id={titleId} className="sr-only">
        {label}
      </h1>
      {frameElements({ label, state, shown, nextFrame, onFrameLoad })}
      {overlay}
    </section>
  );
}
