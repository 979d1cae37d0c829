import { randomUUID } from "node:crypto";
import {
  loadOrCreateLocalSigmaCredentials,
  SigmaApiError,
  SigmaRestClient,
  SigmaShapeError,
} from "@portal/sigma";
import type { AppConfig } from "../config.ts";
import {
  anyUnreachableWaiting,
  claimDue,
  expediteUnreachable,
  releaseClaims,
  settleDelivered,
  settleFailed,
  UNREACHABLE,
  type OutboxRow,
} from "../outbox/queue.ts";
import { deliver, PayloadError, Refusal, type ProvisioningOptions } from "./deliveries.ts";

/** Creates the REST client for the configured BI service (credentials from env or DATA_DIR). */
export async function createSigmaRestClient(config: AppConfig): Promise<SigmaRestClient> {
  let credentials: { clientId: string; clientSecret: string };
  if (config.sigma.api) {
    credentials = config.sigma.api;
  } else {
    const local = await loadOrCreateLocalSigmaCredentials(config.dataDir);
    credentials = { clientId: local.apiClientId, clientSecret: local.apiClientSecret };
  }
  return new SigmaRestClient({ apiBaseUrl: config.sigma.apiBaseUrl, ...credentials });
}

/**
 * Retried for as long as it takes: the service unreachable or timing out, 408, 429 and 5xx. Only a
 * definite refusal (another 4xx) fails a row; a 409 reaches here only when it could not be adopted.
 */
export function isTransient(error: unknown): boolean {
  // 401 after the client's fresh token: the credentials were rotated or revoked; the change waits for the
  // operator's fix (shown on /admin/sync) and goes by itself once they work again.
  if (error instanceof SigmaApiError)
    return error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500;
  // The BI service's answer does not fit Sigma's published shape, a malformed row, a refusal only a
  // person can fix: a definite problem for the admin to see and fix, then Retry.
  return !(error instanceof PayloadError || error instanceof SigmaShapeError || error instanceof Refusal);
}

function unreachable(error: unknown): boolean {
  if (error instanceof SigmaApiError) return false;
  const name = (error as { name?: string }).name;
  const code = String((error as { code?: unknown }).code ?? "");
  return (
    error instanceof TypeError ||
    name === "TimeoutError" ||
    name === "AbortError" ||
    /^(E[A-Z]+|UND_ERR)/.test(code)
  );
}

function describe(error: unknown): string {
  if (error instanceof SigmaApiError) return error.message;
  if (unreachable(error)) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return `${UNREACHABLE} (${cause instanceof Error ? cause.message : String(cause)}).`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** What one delivery did: delivered, retried later, failed for good, or its lease was lost meanwhile. */
export type DeliveryOutcome = "delivered" | "waiting" | "failed" | "lost";

/** Delivers one claimed row and settles it. */
export async function deliverClaimed(
  options: ProvisioningOptions,
  row: OutboxRow,
  owner: string,
): Promise<DeliveryOutcome> {
  const { db, log } = options;
  try {
    await deliver(options, row);
  } catch (error) {
    const transient = isTransient(error);
    const settled = await settleFailed(db, row, owner, {
      transient,
      error: describe(error),
      baseDelayMs: options.baseDelayMs ?? 5_000,
      ...(options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
    });
    log?.warn(
      { requestId: row.id, kind: row.kind, attempts: row.attempts, transient, err: describe(error) },
      transient ? "BI service change will be retried" : "BI service refused a change",
    );
    if (!settled) return "lost";
    return transient ? "waiting" : "failed";
  }
  if (!(await settleDelivered(db, row, owner))) {
    log?.warn({ requestId: row.id, kind: row.kind }, "a delivered change's claim had expired");
    return "lost";
  }
  return "delivered";
}

/**
 * Claims and delivers due rows one at a time until none is due or `limit` were tried, each at most once.
 * Answers how many were delivered. Tests and the worker use it; any number of callers may run at once, on any instance.
 */
export async function deliverDueRequests(options: ProvisioningOptions, limit = 20): Promise<number> {
  const owner = options.owner ?? workerName();
  let delivered = 0;
  const tried: string[] = [];
  while (tried.length < limit) {
    const [row] = await claimDue(options.db, owner, options.leaseMs ?? DEFAULT_LEASE_MS, 1, tried);
    if (!row) break;
    tried.push(row.id);
    if ((await deliverClaimed(options, row, owner)) === "delivered") delivered += 1;
  }
  return delivered;
}

const DEFAULT_LEASE_MS = 60_000;

/** A claim holder's name: the process (so an operator can tell which instance holds a row) and a nonce. */
const workerName = () => `worker-${process.pid}-${randomUUID().slice(0, 8)}`;

export interface WorkerOptions extends ProvisioningOptions {
  /** How often an idle worker looks for due rows. */
  intervalMs?: number;
  /** While rows wait on an unreachable service, how often it is probed. */
  probeMs?: number;
  /** Rows delivered at once by this instance (each by its own loop). */
  concurrency?: number;
}

/**
 * Runs delivery on this instance until stopped; failures of one round never stop it. Several loops
 * claim rows independently (so do other instances). While rows wait on an unreachable BI service it is
 * probed every `probeMs`; as soon as it answers, those rows are due at once. `stop()` stops claiming,
 * lets deliveries in flight finish for up to `graceMs`, and gives back every claim still held.
 */
export function startProvisioningWorker(options: WorkerOptions) {
  const owner = options.owner ?? workerName();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastProbe = 0;

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const probe = async () => {
    if (Date.now() - lastProbe < (options.probeMs ?? 5_000)) return;
    lastProbe = Date.now();
    if (!(await anyUnreachableWaiting(options.db))) return;
    if (await options.client.ping()) {
      const made = await expediteUnreachable(options.db);
      options.log?.info({ rows: made }, "the BI service answers again: waiting changes are due now");
    }
  };

  const loop = async (index: number) => {
    while (!stopped) {
      try {
        if (index === 0) await probe();
        const [row] = stopped ? [] : await claimDue(options.db, owner, leaseMs);
        if (row) {
          const outcome = await deliverClaimed({ ...options, owner }, row, owner);
          // A delivery went through: whatever waited on an outage can go now.
          if (outcome === "delivered" && row.waitingSince) await expediteUnreachable(options.db);
          continue;
        }
      } catch (error) {
        options.log?.error({ err: error }, "BI service delivery round failed");
      }
      if (!stopped) await idle();
    }
  };
  const loops = Array.from({ length: Math.max(1, options.concurrency ?? 2) }, (_, i) => loop(i));

  return {
    owner,
    async stop(graceMs = 5_000) {
      stopped = true;
      wake?.();
      const finished = Promise.all(loops);
      await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      const released = await releaseClaims(options.db, owner).catch(() => 0);
      if (released > 0) options.log?.info({ released }, "gave back BI service changes still claimed");
    },
  };
}
