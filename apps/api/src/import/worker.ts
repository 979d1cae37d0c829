import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { rows as rowsOf } from "../db/rows.ts";
import type { Database } from "../db/client.ts";
import type { InvitationMailer } from "../invitations/mail.ts";
import { commitBatch, finish, LeaseLost, prepare, type ClaimedJob, type ImportContext } from "./batches.ts";

export interface ImportWorkerOptions {
  db: Database;
  /** Invitation mail (D55): rows without a password are invited, their links mailed once their batch commits. */
  invitations?: InvitationMailer;
  log?: Pick<FastifyBaseLogger, "error" | "info">;
  /** How long a claim on a job holds without being renewed (each batch renews it). */
  leaseMs?: number;
  /** Rows per transaction. */
  batchSize?: number;
  /** How often an idle worker looks for a job. */
  pollMs?: number;
  /** Called after each committed batch (tests stop a worker mid-way with it). */
  onBatch?: (jobId: string) => void;
}

/** How long an upload that was never started is kept, and how often that is looked at. */
export const PREVIEW_KEPT_HOURS = 24;
const CLEANUP_EVERY_MS = 10 * 60_000;

/**
 * The import worker (decision 013). Every instance runs one; it claims one queued or abandoned job at a
 * time with a lease (`FOR UPDATE SKIP LOCKED`, as the outbox does, decision 010) and imports its pending
 * rows in batches, each batch one transaction that creates the people and settles their rows together. A
 * worker that stops (restart, crash) leaves its rows pending and its lease runs out: any instance continues
 * where the last committed batch ended, so nobody is created twice.
 */
export function startImportWorker(options: ImportWorkerOptions) {
  const { db, log } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 200;
  const pollMs = options.pollMs ?? 1_000;
  const owner = `import-${crypto.randomUUID()}`;
  const ctx: ImportContext = {
    db,
    owner,
    leaseMs,
    batchSize,
    invitations: options.invitations,
    log,
    onBatch: options.onBatch,
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function claim(): Promise<ClaimedJob | undefined> {
    const claimed = rowsOf<ClaimedJob>(
      await db.execute(sql`
        update import_jobs j
           set status = 'running', lease_owner = ${owner},
               lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
         where j.id = (select id from import_jobs
                        where status in ('queued', 'running')
                          and (lease_expires_at is null or lease_expires_at <= now())
                        order by created_at limit 1 for update skip locked)
        returning j.id, j.kind, j.headers, j.mapping, j.total, j.actor_user_id, j.actor_email, j.actor_ip, j.actor_user_agent`),
    );
    return claimed[0];
  }

  async function runJob(job: ClaimedJob) {
    let next = prepare(ctx, job, 0);
    try {
      while (!stopped) {
        const batch = await next;
        if (batch.rows.length === 0) break;
        next = prepare(ctx, job, batch.rows[batch.rows.length - 1]!.line);
        await commitBatch(ctx, job, batch);
      }
    } finally {
      // A batch prepared but not committed (stopping, an error) stays pending for whoever continues.
      next.catch(() => undefined);
    }
    if (!stopped) await finish(ctx, job);
  }

  let lastCleanup = 0;
  /**
   * An upload never started keeps its rows, passwords included, for a day at most (decision 013): the
   * admin may come back to its preview until then.
   */
  async function dropAbandonedPreviews() {
    if (Date.now() - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = Date.now();
    await db.execute(sql`
      delete from import_jobs
       where status = 'preview' and created_at < now() - ${PREVIEW_KEPT_HOURS} * interval '1 hour'`);
  }

  async function tick() {
    timer = undefined;
    if (stopped) return;
    try {
      await dropAbandonedPreviews();
      for (let job = await claim(); job && !stopped; job = stopped ? undefined : await claim()) {
        await runJob(job);
      }
    } catch (error) {
      if (!(error instanceof LeaseLost)) log?.error({ err: error }, "CSV import batch failed; retrying");
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), pollMs);
  }

  running = tick();
  return {
    /** Looks for work now (a job was just started on this instance). */
    wake() {
      if (stopped || !timer) return;
      clearTimeout(timer);
      running = tick();
    },
    /** Stops after the batch in flight and gives the job back, so another instance continues at once. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running.catch(() => undefined);
      await db
        .execute(
          sql`update import_jobs set lease_owner = null, lease_expires_at = null where lease_owner = ${owner}`,
        )
        .catch(() => undefined);
    },
  };
}

export type ImportWorker = ReturnType<typeof startImportWorker>;
