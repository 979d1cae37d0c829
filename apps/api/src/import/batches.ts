import { availableParallelism } from "node:os";
import type { TPersonKind, TImportMapping } from "@portal/contracts";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { hashPassword } from "../accounts/password.ts";
import { recordAudit } from "../audit/audit.ts";
import { auditActor } from "../audit/actor.ts";
import { rows as rowsOf } from "../db/rows.ts";
import type { Database, Transaction } from "../db/client.ts";
import type { IssuedInvitation } from "../invitations/invitations.ts";
import type { InvitationMailer } from "../invitations/mail.ts";
import { PERSON_KIND } from "../people/kinds.ts";
import { createPeople, type NewPerson } from "../people/people.ts";
import { jobActor } from "./jobs.ts";
import { checkRows, loadLookups, type FileRow } from "./validate.ts";

/**
 * What the steps of one import worker share (`startImportWorker` in `worker.ts` fills in the defaults): the
 * database, the name it holds its jobs' leases under, and its settings.
 */
export interface ImportContext {
  db: Database;
  /** The lease owner of the jobs this worker holds. */
  owner: string;
  /** How long a claim on a job holds without being renewed (each batch renews it). */
  leaseMs: number;
  /** Rows per transaction. */
  batchSize: number;
  /** Invitation mail (D55): rows without a password are invited, their links mailed once their batch commits. */
  invitations: InvitationMailer | undefined;
  log: Pick<FastifyBaseLogger, "error" | "info"> | undefined;
  /** Called after each committed batch (tests stop a worker mid-way with it). */
  onBatch: ((jobId: string) => void) | undefined;
}

export interface ClaimedJob {
  id: string;
  kind: TPersonKind;
  headers: string[];
  mapping: TImportMapping;
  total: number;
  actor_user_id: string | null;
  actor_email: string;
  actor_ip: string | null;
  actor_user_agent: string | null;
}

/** This worker's lease on the job ran out and someone else holds it now: the worker lets the job go. */
export class LeaseLost extends Error {}

/** Argon2id hashes in flight at once: every core, leaving one of libuv's four threads to the rest. */
const HASH_CONCURRENCY = Math.max(1, Math.min(3, availableParallelism()));

type Outcome = { line: number; status: "created" | "skipped" | "failed"; reason: string | null };

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth += 1) {
    if ((e as { code?: unknown }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const actorOf = (job: ClaimedJob) =>
  jobActor({
    actorUserId: job.actor_user_id,
    actorEmail: job.actor_email,
    actorIp: job.actor_ip,
    actorUserAgent: job.actor_user_agent,
  });

/** Locks the job for this transaction while this worker still holds its lease, and renews the lease. */
async function holdLease({ leaseMs, owner }: ImportContext, tx: Transaction, jobId: string) {
  const held = await tx.execute(sql`
    update import_jobs set lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
     where id = ${jobId} and lease_owner = ${owner} returning id`);
  if (rowsOf(held).length === 0) throw new LeaseLost();
}

/** The password cell of a settled row is blanked: it is kept only while the row waits. */
function blankPassword(job: ClaimedJob) {
  const index = job.mapping.password;
  return index === undefined ? sql`cells` : sql`jsonb_set(cells, array[${String(index)}], '""'::jsonb)`;
}

async function settle(tx: Transaction, job: ClaimedJob, outcomes: Outcome[]) {
  if (outcomes.length === 0) return;
  await tx.execute(sql`
    update import_rows r set status = u.status, reason = u.reason, cells = ${blankPassword(job)}
      from unnest(${sql.param(outcomes.map((o) => o.line))}::int[],
                  ${sql.param(outcomes.map((o) => o.status))}::text[],
                  ${sql.param(outcomes.map((o) => o.reason))}::text[]) as u(line, status, reason)
     where r.job_id = ${job.id} and r.line = u.line and r.status = 'pending'`);
}

/** One transaction: the rows still pending among `rows` are checked again, created or settled. */
async function importRows(ctx: ImportContext, job: ClaimedJob, rows: FileRow[], hashes: Map<number, string>) {
  const issued = await ctx.db.transaction(async (tx) => {
    await holdLease(ctx, tx, job.id);
    const lines = rows.map((r) => r.line);
    const pending = new Set(
      rowsOf<{ line: number }>(
        await tx.execute(sql`
          select line from import_rows
           where job_id = ${job.id} and line = any(${sql.param(lines)}::int[]) and status = 'pending'`),
      ).map((r) => r.line),
    );
    const still = rows.filter((r) => pending.has(r.line));
    // Checked again inside the transaction: someone may have added one of these people since the preview.
    const lookups = await loadLookups(tx, job.kind, job.mapping, still);
    const checked = checkRows(job.kind, job.headers, job.mapping, still, lookups, {
      canInvite: ctx.invitations !== undefined,
    });
    const people: NewPerson[] = [];
    const outcomes: Outcome[] = [];
    for (const row of checked) {
      if (row.status === "ok") {
        const passwordHash =
          row.password === null ? null : (hashes.get(row.line) ?? (await hashPassword(row.password)));
        people.push({ line: row.line, fields: row.fields, passwordHash });
        outcomes.push({ line: row.line, status: "created", reason: null });
      } else {
        outcomes.push({
          line: row.line,
          status: row.status === "skipped" ? "skipped" : "failed",
          reason: row.reason,
        });
      }
    }
    const invited = await createPeople(
      tx,
      PERSON_KIND[job.kind],
      people,
      (email) => lookups.accounts.get(email)?.reusable === true,
      actorOf(job),
      { importJobId: job.id },
      ctx.invitations?.lifetimeMs,
    );
    await settle(tx, job, outcomes);
    return invited;
  });
  await mailInvitations(ctx, issued);
}

/** After the batch has committed, as Add Client does; a link not mailed can be resent from the lists. */
async function mailInvitations({ invitations, log }: ImportContext, issued: IssuedInvitation[]) {
  if (!invitations) return;
  // The mailer logs a refused mail with `error` only.
  const mailLog = (log ?? {
    error: () => undefined,
    info: () => undefined,
  }) as unknown as FastifyBaseLogger;
  for (const invitation of issued) await invitations.send(invitation, mailLog);
}

export interface Prepared {
  rows: FileRow[];
  hashes: Map<number, string>;
}

/**
 * The next batch's pending rows after `afterLine`, with their passwords hashed (Argon2id, slow on purpose,
 * on libuv's thread pool in parallel). Started before the previous batch's transaction: its one read goes
 * first, and the hashing overlaps that transaction.
 */
export function prepare(
  { db, batchSize }: ImportContext,
  job: ClaimedJob,
  afterLine: number,
): Promise<Prepared> {
  const read = db.execute(sql`
    select line, cells from import_rows
     where job_id = ${job.id} and status = 'pending' and line > ${afterLine}
     order by line limit ${batchSize}`);
  return read.then(async (result) => {
    const rows = rowsOf<FileRow>(result);
    const hashes = new Map<number, string>();
    const column = job.mapping.password;
    // A password the row check will refuse anyway is not worth a hash.
    const queue = rows.filter((row) => {
      const password = column === undefined ? "" : (row.cells[column] ?? "");
      return password.length >= 8 && password.length <= 128;
    });
    // A few hashes at a time, not the whole batch: libuv's thread pool (4 threads) also serves the
    // instance's file reads and response compression, which must not wait behind 200 hashes.
    const hashers = Array.from({ length: HASH_CONCURRENCY }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        hashes.set(row.line, await hashPassword(row.cells[column!]!));
      }
    });
    await Promise.all(hashers);
    return { rows, hashes };
  });
}

export async function commitBatch(
  ctx: ImportContext,
  job: ClaimedJob,
  { rows, hashes }: Prepared,
): Promise<void> {
  try {
    await importRows(ctx, job, rows, hashes);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Someone created one of these people between the check and the insert: each row on its own, so
    // only that row fails.
    for (const row of rows) {
      try {
        await importRows(ctx, job, [row], hashes);
      } catch (rowError) {
        if (!isUniqueViolation(rowError)) throw rowError;
        await ctx.db.transaction(async (tx) => {
          await holdLease(ctx, tx, job.id);
          await settle(tx, job, [
            {
              line: row.line,
              status: "failed",
              reason: "A person with this email or business id already exists.",
            },
          ]);
        });
      }
    }
  }
  ctx.onBatch?.(job.id);
}

/** Once no row is pending: the job is done, its counts audited, and its lease given up. */
export async function finish(ctx: ImportContext, job: ClaimedJob) {
  await ctx.db.transaction(async (tx) => {
    await holdLease(ctx, tx, job.id);
    const counts = rowsOf<{ status: string; n: number }>(
      await tx.execute(
        sql`select status, count(*)::int as n from import_rows where job_id = ${job.id} group by status`,
      ),
    );
    const count = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
    // Rows refused at preview keep their cells for the failed-rows file, without the password.
    await tx.execute(
      sql`update import_rows set cells = ${blankPassword(job)} where job_id = ${job.id} and status = 'invalid'`,
    );
    await tx.execute(sql`
      update import_jobs set status = 'done', finished_at = now(), lease_owner = null, lease_expires_at = null,
             updated_at = now()
       where id = ${job.id}`);
    await recordAudit(tx, {
      action: "people_import.completed",
      outcome: "success",
      targetType: "import",
      targetId: job.id,
      details: {
        kind: job.kind,
        rows: job.total,
        created: count("created"),
        skipped: count("skipped"),
        failed: count("failed") + count("invalid"),
      },
      ...auditActor(actorOf(job)),
    });
  });
}
