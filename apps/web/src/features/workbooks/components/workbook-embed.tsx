import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useReducer, useRef, useState } from "react";
import type { ActionDispatch, ReactNode } from "react";

import { workbookLabel } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";
import { sessionQueryKey } from "@/lib/session";

import { useEmbedUrl } from "../api/get-embed-url";
import { myWorkbooksQueryOptions } from "../api/get-my-workbooks";
import { frameFailureText } from "../utils/embed-errors";
import {
  embedFrame,
  readEmbedMessage,
  selectNodeMessage,
  variablesUpdateMessage,
} from "../utils/embed-messages";
import { readEmbedSession, renewalPlan, whenDue } from "../utils/embed-session";
import { embedReducer, initialEmbedState } from "../utils/embed-state";
import type { TEmbedAction } from "../utils/embed-state";
import { EmbedProblem, EmbedSkeleton } from "./embed-panels";

/**
 * How long the frame may take to report `workbook:loaded` before the view says so and offers a retry: a
 * service that accepts the connection but never answers is reported within 10 seconds of the frame opening
 * (D27). The built-in server's page posts the event once its first data has been computed (a few hundred
 * milliseconds; seconds on a loaded machine), so this is not much shorter.
 */
export const FRAME_LOAD_TIMEOUT_MS = 9_000;

/**
 * How long a frame whose page has loaded may stay silent before the view says the workbook was not opened:
 * the browser's own error page (connection refused, DNS, TLS) loads at once and never posts
 * `workbook:loaded`, nor do the analytics service's pages without a code (no permission, session expired),
 * and a workbook posts it as soon as its page has run. So those are reported within seconds instead of
 * after the full timeout.
 */
export const FRAME_SILENT_MS = 4_000;

/**
 * A renewal's next frame is swapped in once it has shown its data (`workbook:dataloaded`), or at the latest
 * this long after it loaded: the event is not promised for every workbook, and the current frame is still
 * good for the rest of the renewal lead (embed-session.ts), which is longer.
 */
export const SWAP_WAIT_MS = 5_000;

export const NO_EMBED_DATA = "No embed data available.";

let mounts = 0;
/** A new value per mounted view: part of the mint key, so no view ever gets another view's (used) URL. */
const nextMount = () => `m${++mounts}`;

export type TEmbedViewState = "minting" | "loading" | "loaded" | "failed" | "error" | "empty";

/**
 * The view's frame elements (the current one and, during a renewal, the next) with the mint key each was
 * opened under and its URL's origin: whom the view listens to and posts to.
 */
function framesIn(section: HTMLElement | null) {
  const elements = section?.querySelectorAll<HTMLIFrameElement>("iframe[data-embed-key]") ?? [];
  return Array.from(elements, (element) => ({
    element,
    key: Number(element.dataset.embedKey),
    origin: new URL(element.src).origin,
  }));
}

const frameIn = (section: HTMLElement | null, key: number | undefined) =>
  framesIn(section).find((frame) => frame.key === key);

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

const statusOf = (error: unknown) => (error instanceof AppRequestError ? error.status : undefined);

/**
 * The timers of one frame that has not reported `workbook:loaded` yet: the full timeout, and the short one
 * once its page has loaded without a word (FRAME_SILENT_MS).
 */
function useLoadWatch(
  dispatch: ActionDispatch<[action: TEmbedAction]>,
  attempt: number | undefined,
  src: string | undefined,
  waiting: boolean,
  pageLoaded: boolean,
) {
  useEffect(() => {
    if (!waiting || src === undefined) return;
    const timer = window.setTimeout(() => dispatch({ type: "timeout", attempt }), FRAME_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [dispatch, attempt, src, waiting]);
  const silent = waiting && pageLoaded;
  useEffect(() => {
    if (!silent) return;
    const timer = window.setTimeout(() => dispatch({ type: "silent", attempt }), FRAME_SILENT_MS);
    return () => window.clearTimeout(timer);
  }, [dispatch, attempt, silent]);
}

/**
 * One workbook in the analytics frame. Each mount, retry and renewal mints a new one-time URL (never
 * cached); a frame is trusted only through messages from its own window at its embed URL's origin.
 * Skeleton until `workbook:loaded`; the frame's height follows `workbook:pageheight:onchange`, never less
 * than the viewport below the 90px header; an EINVAL error re-mints once by itself; the frame is renewed
 * before its session ends, out of sight (embed-state.ts).
 */
export function WorkbookEmbed({ workbook }: { workbook: TWorkbook }) {
  const name = workbook.workbook_name;
  const label = workbookLabel(name);
  const titleId = useId();
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(embedReducer, initialEmbedState);
  const [mount] = useState(nextMount);
  const { attempt, renewal, openedWith } = state;
  const embed = useEmbedUrl(name, `${mount}.${attempt}`);
  // After the swap the current frame's key is the renewal's: the same query, so the same URL and frame.
  const nextEmbed = useEmbedUrl(name, `${mount}.${renewal?.attempt ?? "next"}`, renewal !== null);
  const sectionRef = useRef<HTMLElement>(null);

  const embedUrl = embed.data;
  const frame = useMemo(() => (embedUrl ? embedFrame(embedUrl, openedWith) : null), [embedUrl, openedWith]);
  const origin = frame?.origin;
  const src = frame?.src;
  const nextAttempt = renewal?.attempt;
  const nextUrl = renewal ? nextEmbed.data : undefined;
  const nextOpenedWith = renewal?.openedWith;
  const nextFrame = useMemo(
    () => (nextUrl && nextOpenedWith ? embedFrame(nextUrl, nextOpenedWith) : null),
    [nextUrl, nextOpenedWith],
  );
  const nextSrc = nextFrame?.src;

  // One listener for both frames: each message is tagged with the mint key of the frame it came from.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      for (const { element, key, origin: expected } of framesIn(sectionRef.current)) {
        const message = readEmbedMessage(event, element.contentWindow, expected);
        if (message) return dispatch({ type: "message", message, attempt: key });
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  // A new frame after a re-mint or a renewal goes back to the page or element the person had selected,
  // and gets the control values they changed while it was being prepared.
  const loadedFrame = state.phase === "loaded" ? src : undefined;
  const { restore, update } = state;
  useEffect(() => {
    const message = selectNodeMessage(restore);
    const target = frameIn(sectionRef.current, attempt)?.element.contentWindow;
    if (!loadedFrame || !message || !target || !origin) return;
    target.postMessage(message, origin);
  }, [loadedFrame, restore, origin, attempt]);
  useEffect(() => {
    const message = variablesUpdateMessage(update);
    const target = frameIn(sectionRef.current, attempt)?.element.contentWindow;
    if (!loadedFrame || !message || !target || !origin) return;
    target.postMessage(message, origin);
  }, [loadedFrame, update, origin, attempt]);

  // The next frame of a renewal is asked for the selection as soon as it has loaded (before it is shown).
  const nextLoaded = renewal?.phase === "loaded" ? nextSrc : undefined;
  const nextSelecting = renewal?.selecting ? renewal.selection : null;
  useEffect(() => {
    const message = selectNodeMessage(nextSelecting);
    const next = frameIn(sectionRef.current, nextAttempt);
    if (!nextLoaded || !message || !next) return;
    next.element.contentWindow?.postMessage(message, next.origin);
  }, [nextLoaded, nextSelecting, nextAttempt]);
  useEffect(() => {
    if (!nextLoaded || nextAttempt === undefined) return;
    const timer = window.setTimeout(() => dispatch({ type: "swap", attempt: nextAttempt }), SWAP_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [nextLoaded, nextAttempt]);

  // The frame element's load event (fired for an error page too), per frame.
  const [pagesLoaded, setPagesLoaded] = useState<readonly string[]>([]);
  const onFrameLoad = (loaded: string) => setPagesLoaded((pages) => [...pages.slice(-3), loaded]);
  const waiting = src !== undefined && state.phase === "loading";
  useLoadWatch(dispatch, attempt, src, waiting, src !== undefined && pagesLoaded.includes(src));
  // The next frame of a renewal may take the rest of the current session to load (nobody waits for it, and
  // a busy service is slow, not broken); once that has ended, the person waits behind the skeleton, and the
  // same timers as for any frame apply.
  const nextWaiting = nextSrc !== undefined && renewal?.phase === "loading" && state.ended;
  useLoadWatch(
    dispatch,
    nextAttempt,
    nextSrc,
    nextWaiting,
    nextSrc !== undefined && pagesLoaded.includes(nextSrc),
  );

  // Renewal: the times come from the token of the current frame's URL and the moment it arrived.
  const session = useMemo(() => readEmbedSession(embedUrl), [embedUrl]);
  const plan = session && embed.dataUpdatedAt ? renewalPlan(session, embed.dataUpdatedAt) : null;
  const renewAt = plan?.renewAt ?? null;
  const endsAt = plan?.endsAt ?? null;
  const canRenew = state.phase === "loaded" && renewal === null && !state.renewalFailed;
  useEffect(() => {
    if (renewAt === null || !canRenew) return;
    return whenDue(renewAt, () => dispatch({ type: "renew" }));
  }, [renewAt, canRenew]);
  const watchingEnd = endsAt !== null && state.phase !== "failed" && !state.ended;
  useEffect(() => {
    if (!watchingEnd || endsAt === null) return;
    return whenDue(endsAt, () => {
      dispatch({ type: "session-ended", renew: renewAt !== null });
      // The frame's session may have ended with the portal session (it never outlives it): if so, the
      // session check sends the person to sign in.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    });
  }, [watchingEnd, endsAt, renewAt, queryClient]);

  // A renewal whose URL could not be minted (or came without one) is over: it is not tried again.
  const nextMintFailed = renewal !== null && (nextEmbed.isError || (nextEmbed.isSuccess && !nextFrame));
  useEffect(() => {
    if (nextMintFailed && nextAttempt !== undefined)
      dispatch({ type: "renewal-failed", attempt: nextAttempt });
  }, [nextMintFailed, nextAttempt]);

  // 401: the session ended (the guard then shows sign-in); 404: the workbook was unassigned meanwhile.
  // A renewal's mint answers the same way.
  const status = statusOf(embed.error);
  const nextStatus = renewal ? statusOf(nextEmbed.error) : undefined;
  useEffect(() => {
    const statuses = [status, nextStatus];
    if (statuses.includes(401)) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    if (statuses.includes(404)) {
      void queryClient.invalidateQueries({ queryKey: myWorkbooksQueryOptions().queryKey });
    }
  }, [status, nextStatus, queryClient]);

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
  } else if (state.phase === "loading" || state.ended) {
    // `ended`: the current frame now shows the analytics service's "Session expired" page, which must not
    // be left on screen while the next frame loads.
    view = "loading";
    overlay = <EmbedSkeleton />;
  } else {
    view = "loaded";
  }

  const shown = frame !== null && !embed.isPending && state.phase !== "failed" ? frame : null;
  const heightStyle = (pageHeight: number | null) =>
    pageHeight === null ? undefined : { height: `max(calc(100dvh - 90px), ${pageHeight}px)` };
  // The current frame, then the next one of a renewal, as one keyed list: the swap only drops the first,
  // and the next frame's element stays where it is (moving an iframe in the document would reload it).
  // The next frame is laid out like the current one, so its charts measure their real size, but it is
  // transparent, inert and hidden from assistive technology until the swap.
  const frameElements: ReactNode[] = [];
  if (shown) {
    frameElements.push(
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
    frameElements.push(
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
      {frameElements}
      {overlay}
    </section>
  );
}
