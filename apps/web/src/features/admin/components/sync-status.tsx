import type { TClient } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

type TSyncStatus = TClient["sync_status"];

const LOOK: Record<TSyncStatus, { badge: string; text: string; classes: string }> = {
  synced: {
    badge: "Up to date",
    text: "Sigma has this person's latest details.",
    classes: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  },
  pending: {
    badge: "Pending",
    text: "The latest changes are on their way to Sigma.",
    classes: "bg-amber-50 text-amber-800 ring-amber-200",
  },
  failed: {
    badge: "Failed",
    text: "Sigma did not accept the latest changes.",
    classes: "bg-red-50 text-red-700 ring-red-200",
  },
};

type TSyncStatusProps = {
  status: TSyncStatus;
  /** Sigma's answer to the oldest change that has not gone through. */
  error: string | null;
  /** Retries the failed changes (offered only when the sync failed). */
  onRetry: () => void;
  retrying: boolean;
  /** The server's answer to a retry ('Sync retry queued.'), once it succeeded. */
  retried: string | undefined;
  retryError: string | undefined;
};

/** Whether the person's changes have reached Sigma (the provisioning outbox), with Retry after a failure. */
export function SyncStatus({ status, error, onRetry, retrying, retried, retryError }: TSyncStatusProps) {
  const failed = status === "failed" && retried === undefined;
  const look = LOOK[retried === undefined ? status : "pending"];
  return (
    <div className="space-y-2">
      <p className="flex flex-wrap items-center gap-2">
        <span
          className={cn(
            "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
            look.classes,
          )}
        >
          {look.badge}
        </span>
        <span role={retried === undefined ? undefined : "status"} className="text-slate-600">
          {retried ?? look.text}
        </span>
      </p>
      {failed && error ? <p className="text-sm break-words text-slate-600">{error}</p> : null}
      {failed ? (
        <Button variant="secondary" size="sm" isLoading={retrying} onClick={onRetry}>
          {retrying ? "Retrying..." : "Retry sync"}
        </Button>
      ) : null}
      {retryError ? (
        <p role="alert" className="text-sm text-red-700">
          {retryError}
        </p>
      ) : null}
    </div>
  );
}
