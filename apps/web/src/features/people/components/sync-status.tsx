import { RefreshCwIcon } from "lucide-react";
import { useId } from "react";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

import { RETRYING_BY_ITSELF, SYNC_LABELS, syncView, waitingFor } from "../utils/sync-status";
import type { TSyncRetry, TSyncStatus } from "../utils/sync-status";

const LOOK: Record<TSyncStatus, { text: string; classes: string; dot: string }> = {
  synced: {
    text: "Sigma has this person's latest details.",
    classes: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    dot: "bg-emerald-500",
  },
  pending: {
    text: "The latest changes are on their way to Sigma.",
    classes: "bg-amber-50 text-amber-800 ring-amber-200",
    dot: "bg-amber-500",
  },
  failed: {
    text: "Sigma did not accept the latest changes.",
    classes: "bg-red-50 text-red-700 ring-red-200",
    dot: "bg-red-600",
  },
};

/** The sync state as a small badge: its word (Synced, Pending, Failed), coloured to match. */
export function SyncBadge({ status }: { status: TSyncStatus }) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        LOOK[status].classes,
      )}
    >
      <span aria-hidden="true" className={cn("size-1.5 rounded-full", LOOK[status].dot)} />
      {SYNC_LABELS[status]}
    </span>
  );
}

type TSyncStatusProps = {
  status: TSyncStatus;
  /** Sigma's answer to the oldest change that has not gone through. */
  error: string | null;
  /** Since when a pending change has been waiting for an unreachable or busy BI service. */
  waitingSince?: string | null;
  /** Retries the failed changes (offered only when the sync failed). */
  onRetry: () => void;
  retry: TSyncRetry;
  /**
   * `detail` (edit screens): badge with a sentence, the reason and 'Retry sync' below; the record is the
   * one passed along, so after a retry it reads as pending. `compact` (list rows): badge and Retry on one
   * line, the reason below; the row is fetched again after a retry and shown as the server has it.
   */
  variant?: "detail" | "compact";
  /** Whose sync it is, for screen readers where many are shown (e.g. "client CL-1001"). */
  subject?: string;
};

/** Whether the person's changes have reached Sigma (the provisioning outbox), with Retry after a failure. */
export function SyncStatus({
  status,
  error,
  waitingSince,
  onRetry,
  retry,
  variant = "detail",
  subject,
}: TSyncStatusProps) {
  const reasonId = useId();
  const compact = variant === "compact";
  const view = syncView(status, retry.retried, compact);
  // A failure's reason; while pending, the last temporary error (the outbox retries those by itself).
  const reason = !error
    ? undefined
    : view.canRetry
      ? error
      : view.shown === "pending" && view.message === undefined
        ? `${waitingSince ? waitingFor(waitingSince) : RETRYING_BY_ITSELF} ${error}`
        : undefined;
  const retryButton = view.canRetry ? (
    <Button
      variant="secondary"
      size={compact ? "xs" : "sm"}
      isLoading={retry.retrying}
      onClick={onRetry}
      aria-describedby={reason ? reasonId : undefined}
    >
      {compact && !retry.retrying ? <RefreshCwIcon className="size-3.5" /> : null}
      {retry.retrying ? "Retrying..." : compact ? "Retry" : "Retry sync"}
      {subject && !retry.retrying ? <span className="sr-only"> sync of {subject}</span> : null}
    </Button>
  ) : null;
  const retryError = retry.retryError ? (
    <span role="alert" className={cn("block text-red-700", compact ? "text-xs" : "text-sm")}>
      {retry.retryError}
    </span>
  ) : null;

  if (compact) {
    // Spans only: the list puts this inside a table cell's <span>.
    return (
      <span className="flex w-full flex-col items-start gap-1 md:w-40">
        <span className="flex flex-wrap items-center gap-2">
          <SyncBadge status={view.shown} />
          {retryButton}
        </span>
        {reason ? (
          <span id={reasonId} title={reason} className="line-clamp-3 text-xs break-words text-slate-600">
            {reason}
          </span>
        ) : null}
        {view.message ? (
          <span role="status" className="text-xs text-slate-600">
            {view.message}
          </span>
        ) : null}
        {retryError}
      </span>
    );
  }

  return (
    <div className="space-y-2">
      <p className="flex flex-wrap items-center gap-2">
        <SyncBadge status={view.shown} />
        <span role={view.message === undefined ? undefined : "status"} className="text-slate-600">
          {view.message ?? LOOK[view.shown].text}
        </span>
      </p>
      {reason ? (
        <p id={reasonId} className="text-sm break-words text-slate-600">
          {reason}
        </p>
      ) : null}
      {retryButton}
      {retryError}
    </div>
  );
}
