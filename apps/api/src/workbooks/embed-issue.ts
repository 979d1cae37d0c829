import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { EmbedIdentity } from "../access/embed-identity.ts";
import type { createAuditAppender } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { enqueueOutbox } from "../outbox/requests.ts";
import { rows } from "../db/rows.ts";
import type { Principal } from "../plugins/authenticate.ts";
import type { Embedder } from "../sigma/embedder.ts";

type AuditAppender = ReturnType<typeof createAuditAppender>;
type IdentityWorkbook = EmbedIdentity["workbooks"][number];

/** Queues one lookup of an admin's email in the BI service, unless one is already waiting. */
async function queueAdminLink(db: Database, email: string) {
  const subject = email.toLowerCase();
  const waiting = rows<unknown>(
    await db.execute(sql`
      select 1 from provisioning_requests
       where kind = 'member.link' and subject = ${subject} and status <> 'done' limit 1`),
  );
  if (waiting.length === 0) {
    await enqueueOutbox(db, { kind: "member.link", payload: { email } });
  }
}

const sourceOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers["user-agent"] ?? null,
  requestId: request.id,
});

/**
 * Minting a workbook's one-time embed URL and its audit row, the same for every route that opens a frame
 * (provision-and-embed, and the start of a view: decision 024), so that each is exactly as strict and as
 * audited as the other. The access decision (`identity`, `workbook`) is the caller's, from `viewingIdentity`.
 */
export function createEmbedIssuer({
  db,
  embedder,
  audit,
}: {
  db: Database;
  embedder: Embedder;
  audit: AuditAppender;
}) {
  /** `embed.denied`: the workbook (of the client `cId`) is not one the person may view. */
  async function deny(request: FastifyRequest, principal: Principal, workbookId: string, cId?: number) {
    await audit.record({
      action: "embed.denied",
      outcome: "denied",
      actorUserId: principal.userId,
      actorEmail: principal.email,
      targetType: cId === undefined ? "workbook" : "client",
      targetId: cId === undefined ? workbookId : String(cId),
      ...(cId !== undefined && { details: { workbook: workbookId } }),
      ...sourceOf(request),
    });
  }

  /** Mints the URL, audits `embed.issued` with its jti (never the token) and answers the URL. */
  async function issue(
    request: FastifyRequest,
    principal: Principal,
    identity: EmbedIdentity,
    workbook: IdentityWorkbook,
  ): Promise<string> {
    // The portal never provisions admins: the first preview has their email looked up in the BI service,
    // so that an admin who also signs in to Sigma directly gets tokens without user claims from then on.
    if (principal.role === "admin" && !identity.user.linked) await queueAdminLink(db, principal.email);
    // The embed session never outlives the portal session it was opened from.
    const minted = await embedder.mint(identity.user, workbook.workbookName, {
      notAfter: new Date(principal.sessionExpiresAt),
    });
    const details = {
      purpose: "view",
      workbook: workbook.workbookName,
      clientIds: identity.clientIds,
      jti: minted.jti,
      expiresAt: minted.expiresAt.toISOString(),
    };
    const actor = { actorUserId: principal.userId, actorEmail: principal.email, ...sourceOf(request) };
    const { delegation } = identity;
    if (delegation) {
      // A delegate's view names both people: the delegate acts, the client is viewed (decision 020).
      await audit.record({
        action: "embed.issued",
        outcome: "success",
        targetType: "client",
        targetId: String(delegation.cId),
        details: {
          ...details,
          workbookId: workbook.id,
          delegationId: delegation.id,
          viewedClient: { email: delegation.clientEmail, name: delegation.clientName },
        },
        ...actor,
      });
      await db.execute(sql`update delegations set last_viewed_at = now() where id = ${delegation.id}`);
    } else {
      await audit.record({
        action: "embed.issued",
        outcome: "success",
        targetType: "workbook",
        targetId: String(workbook.id),
        details,
        ...actor,
      });
    }
    return minted.url;
  }

  return { deny, issue };
}
