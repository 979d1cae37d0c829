import type { SYNC_STATUSES } from "@portal/contracts";

import { getErrorMessage } from "@/lib/errors";
import { onFirstUse } from "@/lib/on-first-use";
import type { TListPage } from "@/lib/paging";

/** Whether a client's or employee's latest changes have reached Sigma (the provisioning outbox). */
export type TSyncStatus = (typeof SYNC_STATUSES)[number];

/** The badge of each state: words, never colour alone. */
export const SYNC_LABELS: Record<TSyncStatus, string> = {
  synced: "Synced",
  pending: "Pending",
  failed: "Failed",
};

export const SYNC_RETRY_FAILED = "The sync could not be retried.";

/** Put before the last temporary error of a pending sync (Sigma busy or unreachable). */
export const RETRYING_BY_ITSELF = "Trying again automatically. Last answer:";

const WHEN = onFirstUse(
  () => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }),
);

/** Put before the last temporary error of a change that has waited for the BI service for a while. */
export function waitingFor(since: string): string {
  return `Waiting for the BI service since ${WHEN().format(new Date(since))}. Last answer:`;
}

/** The state of a Retry of the failed changes (a resync mutation). */
export type TSyncRetry = {
  retrying: boolean;
  /** The server's answer once the retry went through ('Sync retry queued.' or 'Nothing to retry.'). */
  retried: string | undefined;
  retryError: string | undefined;
};

/** A resync mutation (useResyncPerson, api/people.ts) as the sync status shows it. */
export function retryStateOf(mutation: {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: { message: string } | undefined;
}): TSyncRetry {
  return {
    retrying: mutation.isPending,
    retried: mutation.data?.message,
    retryError: mutation.isError ? getErrorMessage(mutation.error, SYNC_RETRY_FAILED) : undefined,
  };
}

export type TSyncView = {
  /** The state the badge shows. */
  shown: TSyncStatus;
  /** The retry's answer, shown beside the badge. */
  message: string | undefined;
  /** Whether the reason of the failure and the Retry button are offered. */
  canRetry: boolean;
};

/**
 * What a sync status shows. `live` says the status is refreshed from the server after a retry (the
 * lists: the resync mutation settles only once the list has been fetched again), so it is shown as
 * the server has it, and the retry's answer only while that state is not a new failure. Otherwise
 * (the edit screens, which show the record passed along from the list) a retried status is shown as
 * pending, since the failed changes are back in the queue.
 */
export function syncView(status: TSyncStatus, retried: string | undefined, live: boolean): TSyncView {
  if (retried === undefined) return { shown: status, message: undefined, canRetry: status === "failed" };
  if (!live) return { shown: "pending", message: retried, canRetry: false };
  return {
    shown: status,
    message: status === "failed" ? undefined : retried,
    canRetry: status === "failed",
  };
}

/** How often a list page is fetched again while one of its people is still pending. */
export const PENDING_SYNC_POLL_MS = 5_000;

/**
 * The refetch interval of a client or employee list page: every few seconds while a row's changes are
 * on their way to Sigma, so the admin sees them arrive (or fail) without reloading; else never.
 */
export function pendingSyncPollInterval(
  page: TListPage<{ sync_status: TSyncStatus }> | undefined,
): number | false {
  return page?.rows.some((row) => row.sync_status === "pending") ? PENDING_SYNC_POLL_MS : false;
}
