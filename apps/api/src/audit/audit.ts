import type { Executor } from "../db/client.ts";
import type { AuditAction, AuditOutcome } from "./actions.ts";
import { countAuditRows } from "../metrics/counters.ts";
import { appendChained, type PendingRow } from "./chain.ts";

export type { AuditAction, AuditOutcome } from "./actions.ts";

export interface AuditEvent {
  action: AuditAction;
  outcome: AuditOutcome;
  actorUserId?: string | null;
  actorEmail?: string | null;
  targetType?: string;
  targetId?: string;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
  before?: unknown;
  after?: unknown;
  details?: Record<string, unknown>;
}

/** Where an event came from: read from the request the caller is handling. */
export interface AuditSource {
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export function auditSourceFromHeaders(headers: Headers | undefined | null): AuditSource {
  if (!headers) return {};
  return {
    ip: headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? null,
    userAgent: headers.get("user-agent"),
    requestId: headers.get("x-request-id"),
  };
}

/**
 * Appends one event to the audit trail. Never pass passwords, tokens or secrets in `details`,
 * `before` or `after`: the trail is kept for years and exported.
 */
export async function recordAudit(db: Executor, event: AuditEvent): Promise<void> {
  await appendChained(db, [auditRow(event, new Date())]);
  countAuditRows([event]);
}

/** Appends several events in one statement (a batch of the CSV import: one row per person created). */
export async function recordAudits(db: Executor, events: AuditEvent[]): Promise<void> {
  const at = new Date();
  await appendChained(
    db,
    events.map((event) => auditRow(event, at)),
  );
  countAuditRows(events);
}

// Text as PostgreSQL stores it (a lone surrogate becomes U+FFFD), so the hash covers what is read back.
const text = (value: string | null | undefined) =>
  value === null || value === undefined
    ? null
    : /\p{Cs}/u.test(value)
      ? Buffer.from(value).toString()
      : value;

/** A JSON value as it is read back (what JSON.stringify keeps), not the caller's object: the MAC covers that. */
function asStored(value: unknown): unknown {
  return value === null || value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** `occurredAt` is set here, not by the database, because the chain's hash covers it. */
function auditRow(event: AuditEvent, occurredAt: Date): PendingRow {
  return {
    occurredAt,
    action: event.action,
    outcome: event.outcome,
    actorUserId: text(event.actorUserId),
    actorEmail: text(event.actorEmail?.toLowerCase()),
    targetType: text(event.targetType),
    targetId: text(event.targetId),
    ip: text(event.ip),
    userAgent: text(event.userAgent?.slice(0, 512)),
    requestId: text(event.requestId),
    before: asStored(event.before),
    after: asStored(event.after),
    details: asStored(event.details),
  };
}

export interface AuditAppender {
  /** Resolves once the event is committed; rejects if it could not be written. */
  record(event: AuditEvent): Promise<void>;
}

/**
 * Group commit for busy paths (every embed URL issued): events that arrive while writes are under
 * way, or in the same turn of the event loop, are written together as one statement. Each caller
 * still waits for its own row to be committed, so nothing is answered before it is on the trail; an
 * idle server writes an event on the next turn of the event loop. Up to `writers` statements may be in
 * flight at once: a row takes no lock (decision 023), so a PostgreSQL pool commits them in parallel; the
 * embedded PGlite runs one at a time. A further statement starts only once `deepQueue` rows wait: below
 * that, the statement in flight is followed by one batch of them all, which costs the database less (one
 * plan, one commit) than several small ones. The sealer gives the rows their place in the chain afterwards.
 */
export function createAuditAppender(
  db: Executor,
  options: { writers?: number; maxBatch?: number; deepQueue?: number } = {},
) {
  const writers = options.writers ?? 1;
  const maxBatch = options.maxBatch ?? 500;
  const deepQueue = options.deepQueue ?? 16;
  let queue: { row: PendingRow; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  function schedule() {
    if (scheduled || inFlight >= writers || queue.length === 0) return;
    if (inFlight > 0 && queue.length < deepQueue) return;
    scheduled = true;
    setImmediate(write);
  }

  function write() {
    scheduled = false;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    if (batch.length === 0) return;
    inFlight += 1;
    // One time for the batch: the rows are one statement, as if written by one transaction.
    const at = new Date();
    appendChained(
      db,
      batch.map((entry) => ({ ...entry.row, occurredAt: at })),
    )
      .then(
        () => {
          countAuditRows(batch.map((entry) => entry.row));
          batch.forEach((entry) => entry.resolve());
        },
        (error: unknown) => batch.forEach((entry) => entry.reject(error)),
      )
      .finally(() => {
        inFlight -= 1;
        schedule();
      });
    schedule();
  }

  return {
    record(event: AuditEvent) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row: auditRow(event, new Date()), resolve, reject });
        schedule();
      });
    },
  } satisfies AuditAppender;
}
