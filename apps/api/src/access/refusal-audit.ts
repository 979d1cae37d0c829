import type { FastifyRequest } from "fastify";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { pathOf } from "../lib/canonical-url.ts";
import type { AppError } from "../lib/errors.ts";

/** The audit action of a request refused a protected resource with 403 (wrong role, CSRF, MFA enrolment). */
export const ACCESS_DENIED_ACTION = "access.denied";

/**
 * Appends the refusal to the audit trail (security baseline: authorization failures are logged): who, which
 * route (the pattern the router matched, so ids do not scatter it), the path asked for and why. Called by the
 * error handler for every 403 the portal's own API answers, so no refusal can forget it. A failure to write is
 * logged and the refusal still answered: the request is refused either way.
 */
export async function recordRefusal(db: Database, request: FastifyRequest, error: AppError): Promise<void> {
  try {
    await recordAudit(db, {
      action: ACCESS_DENIED_ACTION,
      outcome: "denied",
      actorUserId: request.principal?.userId ?? null,
      actorEmail: request.principal?.email ?? null,
      targetType: "route",
      targetId: `${request.method} ${request.routeOptions.url ?? pathOf(request.url).slice(0, 200)}`,
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? null,
      requestId: request.id,
      details: { status: error.status, code: error.code, path: pathOf(request.url).slice(0, 200) },
    });
  } catch (auditError) {
    request.log.error({ err: auditError }, "could not audit a refused request");
  }
}
