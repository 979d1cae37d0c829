import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import type { provisioningRequests } from "../db/schema.ts";

export type OutboxRow = typeof provisioningRequests.$inferSelect;

/** Longest wait between two tries of a row the BI service could not take (issue: about 5 minutes). */
export const MAX_BACKOFF_MS = 5 * 60_000;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Drizzle's raw rows come back with column names; the queue hands out the schema's shape. */
function toRow(r: Record<string, unknown>): OutboxRow {
  const date = (v: unknown) => (v == null ? null : new Date(v as string));
  return {
    id: r.id as string,
    seq: Number(r.seq),
    userId: (r.user_id as string | null) ?? null,
    subject: r.subject as string,
    kind: r.kind as string,
    payload: r.payload,
    status: r.status as string,
    attempts: Number(r.attempts),
    lastError: (r.last_error as string | null) ?? null,
    nextAttemptAt: date(r.next_attempt_at)!,
    waitingSince: date(r.waiting_since),
    leaseOwner: (r.lease_owner as string | null) ?? null,
    leaseExpiresAt: date(r.lease_expires_at),
    deliveredAt: date(r.delivered_at),
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at)!,
  };
}

/**
 * Claims up to `limit` due rows for `owner` until the lease ends, and counts the attempt. A row is due
 * when it is pending, its time has come, nobody holds a live lease on it, and no earlier row of the same
 * person or BI subject is still undelivered (pending or failed): so each person's changes reach the BI
 * service in the order they were made, whichever instance delivers them. `SKIP LOCKED` lets workers on
 * every instance claim at once without waiting on, or taking, each other's rows.
 */
export async function claimDue(
  db: Database,
  owner: string,
  leaseMs: number,
  limit = 1,
  /** Rows this caller already tried in its round: not taken again (a short backoff may have passed). */
  skip: string[] = [],
): Promise<OutboxRow[]> {
  const claimed = await db.execute(sql`
    update provisioning_requests r
       set lease_owner = ${owner},
           lease_expires_at = now() + ${leaseMs} * interval '1 millisecond',
           attempts = r.attempts + 1
     where r.id in (
       select p.id from provisioning_requests p
        where p.status = 'pending' and p.next_attempt_at <= now()
          and (p.lease_expires_at is null or p.lease_expires_at <= now())
          and not (p.id = any(${sql.param(skip)}::uuid[]))
          and not exists (
            select 1 from provisioning_requests q
             where q.status <> 'done' and q.seq < p.seq
               and (q.subject = p.subject or (p.user_id is not null and q.user_id = p.user_id)))
        order by p.seq
        limit ${limit}
        for update skip locked)
    returning r.*`);
  return rowsOf<Record<string, unknown>>(claimed)
    .map(toRow)
    .sort((a, b) => a.seq - b.seq);
}

/** Only the holder of the lease settles a row; false when the lease was lost (expired and taken). */
export async function settleDelivered(db: Database, row: OutboxRow, owner: string): Promise<boolean> {
  const done = await db.execute(sql`
    update provisioning_requests
       set status = 'done', last_error = null, waiting_since = null, delivered_at = now(),
           lease_owner = null, lease_expires_at = null, updated_at = now()
     where id = ${row.id} and lease_owner = ${owner} and status = 'pending'
    returning id`);
  return rowsOf(done).length === 1;
}

/**
 * A try that did not go through. `transient` (the service unreachable, slow, overloaded or busy): the
 * row stays pending and is tried again after a capped exponential backoff, for as long as it takes.
 * Otherwise the BI service definitely refused it: failed, with the reason, until an admin retries it.
 */
export async function settleFailed(
  db: Database,
  row: OutboxRow,
  owner: string,
  failure: { transient: boolean; error: string; baseDelayMs: number; maxDelayMs?: number },
): Promise<boolean> {
  const cap = failure.maxDelayMs ?? MAX_BACKOFF_MS;
  // Full backoff doubled per attempt, capped, with ±20 % jitter so instances do not retry in step.
  const exp = Math.min(failure.baseDelayMs * 2 ** Math.min(row.attempts - 1, 30), cap);
  const delay = Math.round(exp * (0.8 + Math.random() * 0.4));
  const settled = await db.execute(sql`
    update provisioning_requests
       set status = ${failure.transient ? "pending" : "failed"},
           last_error = ${failure.error.slice(0, 1000)},
           waiting_since = ${failure.transient ? sql`coalesce(waiting_since, now())` : sql`null`},
           next_attempt_at = now() + ${failure.transient ? delay : 0} * interval '1 millisecond',
           lease_owner = null, lease_expires_at = null, updated_at = now()
     where id = ${row.id} and lease_owner = ${owner} and status = 'pending'
    returning id`);
  return rowsOf(settled).length === 1;
}

/** Gives back the rows `owner` still holds (shutting down): another worker may take them at once. */
export async function releaseClaims(db: Database, owner: string): Promise<number> {
  const released = await db.execute(sql`
    update provisioning_requests set lease_owner = null, lease_expires_at = null
     where lease_owner = ${owner} and status = 'pending'
    returning id`);
  return rowsOf(released).length;
}

/** The start of the reason recorded when the BI service could not be reached at all. */
export const UNREACHABLE = "The BI service could not be reached";

/**
 * Rows waiting only because the BI service could not be reached are made due now: the worker calls this
 * once the service answers again, so after an outage nobody waits out a backoff of up to five minutes.
 * Rows the service itself asked to wait (429, 5xx) keep their backoff.
 */
export async function expediteUnreachable(db: Database): Promise<number> {
  const made = await db.execute(sql`
    update provisioning_requests set next_attempt_at = now()
     where status = 'pending' and waiting_since is not null and next_attempt_at > now()
       and last_error like ${`${UNREACHABLE}%`}
    returning id`);
  return rowsOf(made).length;
}

/** Whether any row waits on an unreachable BI service (then the worker probes it). */
export async function anyUnreachableWaiting(db: Database): Promise<boolean> {
  const found = await db.execute(sql`
    select 1 from provisioning_requests
     where status = 'pending' and waiting_since is not null and last_error like ${`${UNREACHABLE}%`}
     limit 1`);
  return rowsOf(found).length > 0;
}
