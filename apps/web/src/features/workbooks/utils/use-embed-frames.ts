import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { ActionDispatch, RefObject } from "react";

import { AppRequestError } from "@/lib/errors";
import { sessionQueryKey } from "@/lib/session";

import type { useEmbedUrl } from "../api/get-embed-url";
import { myClientsQueryOptions } from "../api/get-my-clients";
import { myWorkbooksQueryOptions } from "../api/get-my-workbooks";
import { readEmbedMessage, selectNodeMessage, variablesUpdateMessage } from "./embed-messages";
import type { TEmbedFrame } from "./embed-messages";
import { readEmbedSession, renewalPlan, whenDue } from "./embed-session";
import type { TEmbedAction, TEmbedState } from "./embed-state";

/*
 * The workbook view's effects (components/workbook-embed.tsx): what it hears from and posts to its frames,
 * their load timers, the renewal's timers and what a failed mint refreshes.
 */

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

export type TDispatch = ActionDispatch<[action: TEmbedAction]>;
export type TEmbedQuery = ReturnType<typeof useEmbedUrl>;

const statusOf = (error: unknown) => (error instanceof AppRequestError ? error.status : undefined);

/**
 * The timers of one frame that has not reported `workbook:loaded` yet: the full timeout, and the short one
 * once its page has loaded without a word (FRAME_SILENT_MS).
 */
function useLoadWatch(
  dispatch: TDispatch,
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

/** One listener for both frames: each message is tagged with the mint key of the frame it came from. */
export function useFrameMessages(sectionRef: RefObject<HTMLElement | null>, dispatch: TDispatch) {
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      for (const { element, key, origin: expected } of framesIn(sectionRef.current)) {
        const message = readEmbedMessage(event, element.contentWindow, expected);
        if (message) return dispatch({ type: "message", message, attempt: key });
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [sectionRef, dispatch]);
}

/**
 * What the view posts to its frames: a new frame after a re-mint or a renewal goes back to the page or element
 * the person had selected, and gets the control values they changed while it was being prepared; the next
 * frame of a renewal is asked for the selection as soon as it has loaded (before it is shown), and swapped in
 * at the latest SWAP_WAIT_MS later.
 */
export function useFramePosts(
  sectionRef: RefObject<HTMLElement | null>,
  dispatch: TDispatch,
  state: TEmbedState,
  frame: TEmbedFrame | null,
  nextSrc: string | undefined,
) {
  const { attempt, renewal } = state;
  const origin = frame?.origin;
  const loadedFrame = state.phase === "loaded" ? frame?.src : undefined;
  const { restore, update } = state;
  useEffect(() => {
    const message = selectNodeMessage(restore);
    const target = frameIn(sectionRef.current, attempt)?.element.contentWindow;
    if (!loadedFrame || !message || !target || !origin) return;
    target.postMessage(message, origin);
  }, [sectionRef, loadedFrame, restore, origin, attempt]);
  useEffect(() => {
    const message = variablesUpdateMessage(update);
    const target = frameIn(sectionRef.current, attempt)?.element.contentWindow;
    if (!loadedFrame || !message || !target || !origin) return;
    target.postMessage(message, origin);
  }, [sectionRef, loadedFrame, update, origin, attempt]);

  const nextAttempt = renewal?.attempt;
  const nextLoaded = renewal?.phase === "loaded" ? nextSrc : undefined;
  const nextSelecting = renewal?.selecting ? renewal.selection : null;
  useEffect(() => {
    const message = selectNodeMessage(nextSelecting);
    const next = frameIn(sectionRef.current, nextAttempt);
    if (!nextLoaded || !message || !next) return;
    next.element.contentWindow?.postMessage(message, next.origin);
  }, [sectionRef, nextLoaded, nextSelecting, nextAttempt]);
  useEffect(() => {
    if (!nextLoaded || nextAttempt === undefined) return;
    const timer = window.setTimeout(() => dispatch({ type: "swap", attempt: nextAttempt }), SWAP_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [dispatch, nextLoaded, nextAttempt]);
}

/**
 * The frame elements' load events (fired for an error page too) and the load timers of both frames; returns
 * the frames' `onLoad`.
 */
export function useFrameLoads(
  dispatch: TDispatch,
  state: TEmbedState,
  src: string | undefined,
  nextSrc: string | undefined,
) {
  const { attempt, renewal } = state;
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
    renewal?.attempt,
    nextSrc,
    nextWaiting,
    nextSrc !== undefined && pagesLoaded.includes(nextSrc),
  );
  return onFrameLoad;
}

/** Renewal: the times come from the token of the current frame's URL and the moment it arrived. */
export function useSessionTimers(
  dispatch: TDispatch,
  state: TEmbedState,
  embedUrl: string | null | undefined,
  arrivedAt: number,
) {
  const queryClient = useQueryClient();
  const session = useMemo(() => readEmbedSession(embedUrl), [embedUrl]);
  const plan = session && arrivedAt ? renewalPlan(session, arrivedAt) : null;
  const renewAt = plan?.renewAt ?? null;
  const endsAt = plan?.endsAt ?? null;
  const canRenew = state.phase === "loaded" && state.renewal === null && !state.renewalFailed;
  useEffect(() => {
    if (renewAt === null || !canRenew) return;
    return whenDue(renewAt, () => dispatch({ type: "renew" }));
  }, [dispatch, renewAt, canRenew]);
  const watchingEnd = endsAt !== null && state.phase !== "failed" && !state.ended;
  useEffect(() => {
    if (!watchingEnd || endsAt === null) return;
    return whenDue(endsAt, () => {
      dispatch({ type: "session-ended", renew: renewAt !== null });
      // The frame's session may have ended with the portal session (it never outlives it): if so, the
      // session check sends the person to sign in.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    });
  }, [dispatch, watchingEnd, endsAt, renewAt, queryClient]);
}

/**
 * The mints' failures: a renewal's ends it; 401 and 404 refresh the session and the workbook list (a
 * client's, with the list of clients: a 404 there may mean the client stopped sharing).
 */
export function useMintFailures(
  dispatch: TDispatch,
  renewal: TEmbedState["renewal"],
  embed: TEmbedQuery,
  nextEmbed: TEmbedQuery,
  nextFrame: TEmbedFrame | null,
  clientId: number | null,
) {
  const queryClient = useQueryClient();
  // A renewal whose URL could not be minted (or came without one) is over: it is not tried again.
  const nextAttempt = renewal?.attempt;
  const nextMintFailed = renewal !== null && (nextEmbed.isError || (nextEmbed.isSuccess && !nextFrame));
  useEffect(() => {
    if (nextMintFailed && nextAttempt !== undefined)
      dispatch({ type: "renewal-failed", attempt: nextAttempt });
  }, [dispatch, nextMintFailed, nextAttempt]);

  // 401: the session ended (the guard then shows sign-in); 404: the workbook was unassigned meanwhile, or
  // the client no longer shares it (the list then answers 404 too). A renewal's mint answers the same way.
  const status = statusOf(embed.error);
  const nextStatus = renewal ? statusOf(nextEmbed.error) : undefined;
  useEffect(() => {
    const statuses = [status, nextStatus];
    if (statuses.includes(401)) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    if (statuses.includes(404)) {
      void queryClient.invalidateQueries({
        queryKey: myWorkbooksQueryOptions(clientId).queryKey,
        exact: true,
      });
      if (clientId !== null)
        void queryClient.invalidateQueries({ queryKey: myClientsQueryOptions().queryKey });
    }
  }, [status, nextStatus, queryClient, clientId]);
}
