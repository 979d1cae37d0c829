import {
  PEOPLE,
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  type TImportJob,
  type TPersonKind,
  type TImportMapping,
  type TImportRowProblem,
} from "@portal/contracts";
import { sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import { auditActor, type Actor } from "../audit/actor.ts";
import { rows as rowsOf } from "../db/rows.ts";
import type { Database, Executor } from "../db/client.ts";
import { importJobs } from "../db/schema.ts";
import { AppError, notFound } from "../lib/errors.ts";
import { mapRow, mappingProblem, missingFields, suggestMapping } from "./columns.ts";
import { decodeCsvFile, failedRowsCsv, parseCsv } from "./csv-file.ts";
import { checkRows, loadLookups, type FileRow } from "./validate.ts";

/** Problems listed in a job's answer; the failed-rows CSV has all of them. */
const PROBLEMS_SHOWN = 500;
/** Rows per INSERT when a file is stored. */
const STORE_CHUNK = 2_000;

interface JobRecord {
  id: string;
  kind: TPersonKind;
  fileName: string;
  status: TImportJob["status"];
  headers: string[];
  mapping: TImportMapping;
  total: number;
  actorUserId: string | null;
  actorEmail: string;
  actorIp: string | null;
  actorUserAgent: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export async function findJob(db: Executor, jobId: string): Promise<JobRecord> {
  const [job] = await db
    .select()
    .from(importJobs)
    .where(sql`${importJobs.id} = ${jobId}`);
  if (!job) throw notFound("Import not found.");
  return job as JobRecord;
}

/** The actor of a job's audit rows: the admin who uploaded it, from where. */
export function jobActor(
  job: Pick<JobRecord, "actorUserId" | "actorEmail" | "actorIp" | "actorUserAgent">,
): Actor {
  return {
    userId: job.actorUserId ?? "",
    email: job.actorEmail,
    ip: job.actorIp,
    userAgent: job.actorUserAgent,
    requestId: null,
  };
}

async function checkedStatuses(
  db: Executor,
  kind: TPersonKind,
  headers: string[],
  mapping: TImportMapping,
  rows: FileRow[],
  canInvite: boolean,
) {
  const lookups = await loadLookups(db, kind, mapping, rows);
  return checkRows(kind, headers, mapping, rows, lookups, { canInvite }).map((row) => ({
    line: row.line,
    status: row.status,
    reason: row.status === "ok" ? null : row.reason,
  }));
}

/**
 * Reads an uploaded file, checks every row and stores it as an import in preview. Nothing is created
 * yet; a file that cannot be read, or whose columns match none of the person's fields, stores nothing.
 */
export async function createImport(
  db: Database,
  input: { kind: TPersonKind; fileName: string; bytes: Buffer },
  actor: Actor,
  canInvite = false,
): Promise<string> {
  const { headers, rows } = parseCsv(decodeCsvFile(input.bytes));
  const mapping = suggestMapping(input.kind, headers);
  if (Object.keys(mapping).length === 0) {
    const expected = IMPORT_FIELDS[input.kind].map((f) => IMPORT_FIELD_LABELS[f]).join(", ");
    throw new AppError(
      400,
      `No column of this file is one of a ${input.kind}'s fields (${expected}). Check that it is the right file and that its first row names the columns.`,
      "NOT_CSV",
    );
  }
  const checked = await checkedStatuses(db, input.kind, headers, mapping, rows, canInvite);
  return db.transaction(async (tx) => {
    const [job] = await tx
      .insert(importJobs)
      .values({
        kind: input.kind,
        fileName: input.fileName,
        headers,
        mapping,
        total: rows.length,
        actorUserId: actor.userId,
        actorEmail: actor.email,
        actorIp: actor.ip ?? null,
        actorUserAgent: actor.userAgent?.slice(0, 512) ?? null,
      })
      .returning({ id: importJobs.id });
    for (let i = 0; i < rows.length; i += STORE_CHUNK) {
      const chunk = rows.slice(i, i + STORE_CHUNK);
      const status = checked.slice(i, i + STORE_CHUNK);
      await tx.execute(sql`
        insert into import_rows (job_id, line, cells, status, reason)
        select ${job!.id}::uuid, u.line, u.cells::jsonb, u.status, u.reason
          from unnest(${sql.param(chunk.map((r) => r.line))}::int[],
                      ${sql.param(chunk.map((r) => JSON.stringify(r.cells)))}::text[],
                      ${sql.param(status.map((s) => s.status))}::text[],
                      ${sql.param(status.map((s) => s.reason))}::text[]) as u(line, cells, status, reason)`);
    }
    return job!.id;
  });
}

async function fileRows(db: Executor, jobId: string, where = sql`true`): Promise<FileRow[]> {
  return rowsOf<{ line: number; cells: string[] }>(
    await db.execute(
      sql`select line, cells from import_rows where job_id = ${jobId} and ${where} order by line`,
    ),
  );
}

/** Another column mapping for an import still in preview: every row is checked again. */
export async function remapImport(
  db: Database,
  jobId: string,
  mapping: TImportMapping,
  canInvite = false,
): Promise<void> {
  const job = await findJob(db, jobId);
  if (job.status !== "preview") {
    throw new AppError(409, "This import has started; its columns can no longer be changed.", "IMPORT_STATE");
  }
  const problem = mappingProblem(job.kind, mapping, job.headers.length);
  if (problem) throw new AppError(400, problem, "IMPORT_MAPPING");
  const rows = await fileRows(db, jobId);
  const checked = await checkedStatuses(db, job.kind, job.headers, mapping, rows, canInvite);
  await db.transaction(async (tx) => {
    await tx
      .update(importJobs)
      .set({ mapping })
      .where(sql`${importJobs.id} = ${jobId}`);
    for (let i = 0; i < checked.length; i += STORE_CHUNK) {
      const chunk = checked.slice(i, i + STORE_CHUNK);
      await tx.execute(sql`
        update import_rows r set status = u.status, reason = u.reason
          from unnest(${sql.param(chunk.map((c) => c.line))}::int[],
                      ${sql.param(chunk.map((c) => c.status))}::text[],
                      ${sql.param(chunk.map((c) => c.reason))}::text[]) as u(line, status, reason)
         where r.job_id = ${jobId} and r.line = u.line`);
    }
  });
}

/**
 * Starts importing the rows that passed the preview: they are queued, and a worker on any instance
 * creates them in batches (`worker.ts`). Rows refused at preview count as failed in the report.
 */
export async function startImport(
  db: Database,
  jobId: string,
  actor: Actor,
  canInvite = false,
): Promise<void> {
  const job = await findJob(db, jobId);
  const missing = missingFields(job.kind, job.mapping, canInvite);
  if (missing.length > 0) {
    throw new AppError(
      400,
      `Map a column to ${missing.map((f) => IMPORT_FIELD_LABELS[f]).join(", ")} first.`,
      "IMPORT_MAPPING",
    );
  }
  await db.transaction(async (tx) => {
    const started = await tx.execute(sql`
      update import_jobs set status = 'queued', started_at = now(), updated_at = now()
       where id = ${jobId} and status = 'preview' returning id`);
    if (rowsOf(started).length === 0) {
      throw new AppError(409, "This import has already been started.", "IMPORT_STATE");
    }
    const queued = await tx.execute(
      sql`update import_rows set status = 'pending' where job_id = ${jobId} and status = 'ok' returning line`,
    );
    await recordAudit(tx, {
      action: "people_import.started",
      outcome: "success",
      targetType: "import",
      targetId: jobId,
      details: { kind: job.kind, fileName: job.fileName, rows: job.total, queued: rowsOf(queued).length },
      ...auditActor(actor),
    });
  });
}

interface Counts {
  ok: number;
  invalid: number;
  skipped: number;
  pending: number;
  created: number;
  failed: number;
}

async function countRows(db: Executor, jobId: string): Promise<Counts> {
  const counts: Counts = { ok: 0, invalid: 0, skipped: 0, pending: 0, created: 0, failed: 0 };
  const found = rowsOf<{ status: keyof Counts; n: number }>(
    await db.execute(
      sql`select status, count(*)::int as n from import_rows where job_id = ${jobId} group by status`,
    ),
  );
  for (const row of found) counts[row.status] = row.n;
  return counts;
}

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

/** The import's state and progress: what the preview found, and while importing how far it has got. */
export async function getImport(db: Executor, jobId: string): Promise<TImportJob> {
  const job = await findJob(db, jobId);
  const counts = await countRows(db, jobId);
  const idField = PEOPLE[job.kind].businessIdField;
  const problems = rowsOf<{
    line: number;
    cells: string[];
    status: TImportRowProblem["status"];
    reason: string;
  }>(
    await db.execute(sql`
      select line, cells, status, reason from import_rows
       where job_id = ${jobId} and status in ('invalid', 'skipped', 'failed')
       order by line limit ${PROBLEMS_SHOWN}`),
  ).map((row) => {
    const values = mapRow(row.cells, job.mapping);
    return {
      row: row.line,
      status: row.status,
      reason: row.reason,
      businessId: values[idField] ?? "",
      email: values.email ?? "",
    };
  });
  const preview = job.status === "preview";
  return {
    id: job.id,
    kind: job.kind,
    fileName: job.fileName,
    status: job.status,
    headers: job.headers,
    mapping: job.mapping,
    total: job.total,
    valid: counts.ok + counts.pending + counts.created + counts.failed,
    invalid: counts.invalid,
    done: preview ? 0 : job.total - counts.pending - counts.ok,
    created: counts.created,
    skipped: counts.skipped,
    failed: counts.failed + (preview ? 0 : counts.invalid),
    createdAt: iso(job.createdAt)!,
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    problems,
    problemCount: counts.invalid + counts.skipped + counts.failed,
  };
}

/** Every row refused at preview or failed while importing, as a CSV file to fix and upload again. */
export async function failedRowsFile(
  db: Executor,
  jobId: string,
): Promise<{ fileName: string; csv: string }> {
  const job = await findJob(db, jobId);
  const failed = rowsOf<{ cells: string[]; reason: string }>(
    await db.execute(sql`
      select cells, reason from import_rows
       where job_id = ${jobId} and status in ('invalid', 'failed') order by line`),
  );
  // Passwords never leave the portal again: the admin enters them anew for the rows being fixed.
  const password = job.mapping.password;
  const rows = failed.map((row) => ({
    reason: row.reason,
    cells: password === undefined ? row.cells : row.cells.map((cell, i) => (i === password ? "" : cell)),
  }));
  const base = job.fileName.replace(/\.csv$/i, "") || "import";
  return { fileName: `${base}-failed-rows.csv`, csv: failedRowsCsv(job.headers, rows) };
}
