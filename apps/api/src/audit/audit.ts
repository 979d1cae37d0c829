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
  await db.insert(auditLog).values({
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
  });
}
