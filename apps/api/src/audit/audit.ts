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
 * Group commit for busy paths (every embed URL issued): events that arrive while a write is under
 * way, or in the same turn of the event loop, are written together as one multi-row INSERT. Each
 * caller still waits for its own row to be committed, so nothing is answered before it is on the
 * trail; an idle server writes an event on the next turn of the event loop.
 */
export function createAuditAppender(db: Executor, maxBatch = 500): AuditAppender {
  let queue: { row: typeof auditLog.$inferInsert; resolve: () => void; reject: (error: unknown) => void }[] =
    [];
  let writing = false;

  async function drain() {
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        try {
          await insertBatch(db, batch.map((entry) => entry.row));
          for (const entry of batch) entry.resolve();
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    record(event) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row: auditRow(event), resolve, reject });
        // Start on the next turn of the event loop, so the requests read in this turn share one write.
        if (!writing) {
          writing = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
