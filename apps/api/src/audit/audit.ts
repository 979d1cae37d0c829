import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { auditLog } from "../db/schema.ts";

export type AuditOutcome = "success" | "failure" | "denied" | "rate_limited";

export interface AuditEvent {
  action: string;
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
  await db.insert(auditLog).values(auditRow(event));
}

function auditRow(event: AuditEvent): typeof auditLog.$inferInsert {
  return {
    action: event.action,
    outcome: event.outcome,
    actorUserId: event.actorUserId ?? null,
    actorEmail: event.actorEmail?.toLowerCase() ?? null,
    targetType: event.targetType ?? null,
    targetId: event.targetId ?? null,
    ip: event.ip ?? null,
    userAgent: event.userAgent?.slice(0, 512) ?? null,
    requestId: event.requestId ?? null,
    before: event.before ?? null,
    after: event.after ?? null,
    details: event.details ?? null,
  };
}

/**
 * One statement whose text does not depend on the batch size: each column travels as one array
 * parameter and `unnest` turns them back into rows (cheaper to build and to plan than N VALUES rows).
 */
async function insertBatch(db: Executor, rows: (typeof auditLog.$inferInsert)[]) {
  const column = <T>(pick: (row: typeof auditLog.$inferInsert) => T) => sql.param(rows.map(pick));
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  await db.execute(sql`
    insert into audit_log (actor_user_id, actor_email, action, outcome, target_type, target_id, ip, user_agent,
                           request_id, before, after, details)
    select * from unnest(
      ${column((r) => r.actorUserId ?? null)}::text[], ${column((r) => r.actorEmail ?? null)}::text[],
      ${column((r) => r.action)}::text[], ${column((r) => r.outcome)}::text[],
      ${column((r) => r.targetType ?? null)}::text[], ${column((r) => r.targetId ?? null)}::text[],
      ${column((r) => r.ip ?? null)}::text[], ${column((r) => r.userAgent ?? null)}::text[],
      ${column((r) => r.requestId ?? null)}::text[], ${column((r) => json(r.before))}::jsonb[],
      ${column((r) => json(r.after))}::jsonb[], ${column((r) => json(r.details))}::jsonb[])`);
}

export interface AuditAppender {
  /** Resolves once the event is committed; rejects if it could not be written. */
  record(event: AuditEvent): Promise<void>;
}

/**
 * Group commit for busy paths (every embed URL issued): events that arrive while writes are under
 * way, or in the same turn of the event loop, are written together as one statement. Each caller
 * still waits for its own row to be committed, so nothing is answered before it is on the trail; an
 * idle server writes an event on the next turn of the event loop. `writers` statements may be in
 * flight at once (a PostgreSQL pool commits them in parallel; the embedded PGlite runs one at a time).
 */
export function createAuditAppender(db: Executor, options: { writers?: number; maxBatch?: number } = {}) {
  const writers = options.writers ?? 1;
  const maxBatch = options.maxBatch ?? 500;
  let queue: { row: typeof auditLog.$inferInsert; resolve: () => void; reject: (error: unknown) => void }[] =
    [];
  let inFlight = 0;
  let scheduled = false;

  function schedule() {
    if (scheduled || inFlight >= writers || queue.length === 0) return;
    scheduled = true;
    setImmediate(write);
  }

  function write() {
    scheduled = false;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    if (batch.length === 0) return;
    inFlight += 1;
    insertBatch(
      db,
      batch.map((entry) => entry.row),
    )
      .then(
        () => batch.forEach((entry) => entry.resolve()),
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
        queue.push({ row: auditRow(event), resolve, reject });
        schedule();
      });
    },
  } satisfies AuditAppender;
}
