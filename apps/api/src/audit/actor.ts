import type { FastifyRequest } from "fastify";
import type { AuditSource } from "./audit.ts";

/** Who is making an admin change, and from where: goes into every audit row. */
export interface Actor extends AuditSource {
  userId: string;
  email: string;
}

export function actorOf(request: FastifyRequest): Actor {
  return {
    userId: request.principal!.userId,
    email: request.principal!.email,
    ip: request.ip,
    userAgent: request.headers["user-agent"] ?? null,
    requestId: request.id,
  };
}

/** The actor's columns of an audit row. */
export function auditActor(actor: Actor) {
  return {
    actorUserId: actor.userId,
    actorEmail: actor.email,
    ip: actor.ip ?? null,
    userAgent: actor.userAgent ?? null,
    requestId: actor.requestId ?? null,
  };
}
