import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useReducer, useRef, useState } from "react";
import type { ReactNode } from "react";

import { workbookLabel } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";
import { sessionQueryKey } from "@/lib/session";

import { useEmbedUrl } from "../api/get-embed-url";
import { myWorkbooksQueryOptions } from "../api/get-my-workbooks";
import { frameFailureText } from "../utils/embed-errors";
import { embedFrame, readEmbedMessage, selectNodeMessage } from "../utils/embed-messages";
import { embedReducer, initialEmbedState } from "../utils/embed-state";
import { EmbedProblem, EmbedSkeleton } from "./embed-panels";

/**
 * How long the frame may take to report `workbook:loaded` before the view says so and offers a retry: a
 * service that accepts the connection but never answers is reported within 10 seconds of the frame opening
 * (D27). The built-in server's page posts the event once its first data has been computed (a few hundred
 * milliseconds; seconds on a loaded machine), so this is not much shorter.
 */
export const FRAME_LOAD_TIMEOUT_MS = 9_000;

/**
 * How long a frame whose page has loaded may stay silent before the view says the analytics service could
 * not be reached: the browser's own error page (connection refused, DNS, TLS) loads at once and never posts
 * `workbook:loaded`, and a workbook posts it as soon as its page has run. So an unreachable service is
 * reported within seconds instead of after the full timeout.
 */
export const FRAME_SILENT_MS = 4_000;

export const NO_EMBED_DATA = "No embed data available.";

let mounts = 0;
/** A new value per mounted view: part of the mint key, so no view ever gets another view's (used) URL. */
const nextMount = () => `m${++mounts}`;

export type TEmbedViewState = "minting" | "loading" | "loaded" | "failed" | "error" | "empty";

function AlertIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      className="size-6"
      aria-hidden="true"
    >
      <path d="M12 3.5 2.5 20h19z" strokeLinejoin="round" />
      <path d="M12 10v4.5M12 17.2v.1" strokeLinecap="round" />
    </svg>
  );
}

/**
 * One workbook in the analytics frame. Each mount and each retry mints a new one-time URL (never cached);
 * the frame is trusted only through messages from its own window at the embed URL's origin. Skeleton
 * until `workbook:loaded`; the frame's height follows `workbook:pageheight:onchange`, never less than the
 * viewport below the 90px header; an EINVAL error re-mints once by itself (see embed-state.ts).
 */
export function WorkbookEmbed({ workbook }: { workbook: TWorkbook }) {
  const name = workbook.workbook_name;
  const label = workbookLabel(name);
  const titleId = useId();
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(embedReducer, initialEmbedState);
  const [mount] = useState(nextMount);
  const embed = useEmbedUrl(name, `${mount}.${state.attempt}`);
  const frameRef = useRef<HTMLIFrameElement>(null);

  const embedUrl = embed.data;
  const { openedWith } = state;
  const frame = useMemo(() => (embedUrl ? embedFrame(embedUrl, openedWith) : null), [embedUrl, openedWith]);
  const origin = frame?.origin;
  const src = frame?.src;

  useEffect(() => {
    if (!origin) return;
    const onMessage = (event: MessageEvent) => {
      const message = readEmbedMessage(event, frameRef.current?.contentWindow, origin);
      if (message) dispatch({ type: "message", message });
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [origin]);

  // A new frame after a re-mint goes back to the page or element the person had selected.
  const loadedFrame = state.phase === "loaded" ? src : undefined;
  const { restore } = state;
  useEffect(() => {
    const message = selectNodeMessage(restore);
    const target = frameRef.current?.contentWindow;
    if (!loadedFrame || !message || !target || !origin) return;
    target.postMessage(message, origin);
  }, [loadedFrame, restore, origin]);

  const waiting = src !== undefined && state.phase === "loading";
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setTimeout(() => dispatch({ type: "timeout" }), FRAME_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [waiting, src]);

  // The frame element's load event (fired for an error page too) for the frame now shown.
  const [pageLoaded, setPageLoaded] = useState<string | null>(null);
  const silent = waiting && pageLoaded === src;
  useEffect(() => {
    if (!silent) return;
    const timer = window.setTimeout(() => dispatch({ type: "silent" }), FRAME_SILENT_MS);
    return () => window.clearTimeout(timer);
  }, [silent]);

  // 401: the session ended (the guard then shows sign-in); 404: the workbook was unassigned meanwhile.
  const status = embed.error instanceof AppRequestError ? embed.error.status : undefined;
  useEffect(() => {
    if (status === 401) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    if (status === 404) void queryClient.invalidateQueries({ queryKey: myWorkbooksQueryOptions().queryKey });
  }, [status, queryClient]);

  const retry = () => dispatch({ type: "retry" });
  let view: TEmbedViewState;
  let overlay: ReactNode = null;
  if (embed.isPending) {
    view = "minting";
    overlay = <EmbedSkeleton />;
  } else if (embed.isError) {
    view = "error";
    overlay = (
      <EmbedProblem title="This workbook could not be opened." icon={<AlertIcon />} onRetry={retry}>
        <p>{embed.error.message}</p>
      </EmbedProblem>
    );
  } else if (!frame) {
    view = "empty";
    overlay = <EmbedProblem title={NO_EMBED_DATA} onRetry={retry} />;
  } else if (state.phase === "failed") {
    view = "failed";
    const text = frameFailureText(state.failure ?? { code: "UNKNOWN", message: "" });
    overlay = (
      <EmbedProblem title={text.title} icon={<AlertIcon />} onRetry={retry}>
        <p>{text.detail}</p>
      </EmbedProblem>
    );
  } else if (state.phase === "loading") {
    view = "loading";
    overlay = <EmbedSkeleton />;
  } else {
    view = "loaded";
  }

  const showFrame = frame !== null && !embed.isPending && state.phase !== "failed";
  return (
    <section
      aria-labelledby={titleId}
      aria-busy={view === "minting" || view === "loading"}
      data-embed-state={view}
      className="relative -mx-4 -my-6 min-h-[calc(100dvh-90px)] bg-white sm:-mx-8 sm:-my-8"
    >
      <h1 id={titleId} className="sr-only">
        {label}
      </h1>
      {showFrame ? (
        <iframe
          key={frame.src}
          ref={frameRef}
          src={frame.src}
          title={`${label} workbook`}
          allow="camera; microphone; clipboard-write; fullscreen"
          onLoad={() => setPageLoaded(frame.src)}
          data-fullscreen={state.fullScreen ? "true" : undefined}
          className={
            state.fullScreen
              ? "fixed inset-0 z-50 block h-dvh w-full border-0"
              : "block h-[calc(100dvh-90px)] w-full border-0"
          }
          style={
            state.pageHeight === null || state.fullScreen
              ? undefined
              : { height: `max(calc(100dvh - 90px), ${state.pageHeight}px)` }
          }
        />
      ) : null}
      {overlay}
    </section>
  );
}
