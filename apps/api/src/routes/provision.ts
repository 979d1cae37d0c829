import { SELF_SIGN_UP_ROLES, ZProvisionRequestSchema, type TProvisionResponse } from "@portal/contracts";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { provisioningRequests, users } from "../db/schema.ts";
import { AppError, forbidden } from "../lib/errors.ts";

/**
 * POST /api/sigma/provision — called with the bearer token right after Create Account.
 * Records the person's chosen self sign-up role and a durable request to create them in the BI
 * service; the delivery to the BI service is done by the provisioning worker from that record.
 */
export async function provisionRoutes(app: FastifyInstance, { db }: { db: Database }) {
  // Authorization before validation: someone whose access the firm manages gets 403 whatever the body.
  const selfSignUpOnly = async (request: FastifyRequest) => {
    const role = request.principal?.role;
    if (!role || !(SELF_SIGN_UP_ROLES as readonly string[]).includes(role)) {
      throw forbidden("This account's access is managed by the firm.");
    }
  };

  app.post("/api/sigma/provision", { onRequest: selfSignUpOnly }, async (request, reply) => {
    const principal = request.principal!;
    const body = ZProvisionRequestSchema.parse(request.body);
    if (body.email.toLowerCase() !== principal.email.toLowerCase()) {
      throw new AppError(400, "The email does not match the signed-in account.", "EMAIL_MISMATCH");
    }

    const result = await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ name: users.name, role: users.role })
        .from(users)
        .where(eq(users.id, principal.userId));
      await tx.update(users).set({ role: body.role, name: body.name }).where(eq(users.id, principal.userId));
      const payload = { name: body.name, email: principal.email, role: body.role };
      const [pending] = await tx
        .select({ id: provisioningRequests.id })
        .from(provisioningRequests)
        .where(
          and(
            eq(provisioningRequests.userId, principal.userId),
            eq(provisioningRequests.kind, "member.upsert"),
            eq(provisioningRequests.status, "pending"),
          ),
        );
      let id: string;
      if (pending) {
        await tx.update(provisioningRequests).set({ payload }).where(eq(provisioningRequests.id, pending.id));
        id = pending.id;
      } else {
        const [created] = await tx
          .insert(provisioningRequests)
          .values({ userId: principal.userId, kind: "member.upsert", payload })
          .returning({ id: provisioningRequests.id });
        id = created!.id;
      }
      await recordAudit(tx, {
        action: "user.provision_requested",
        outcome: "success",
        actorUserId: principal.userId,
        actorEmail: principal.email,
        targetType: "user",
        targetId: principal.userId,
        before,
        after: { name: body.name, role: body.role },
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? null,
        requestId: request.id,
      });
      return id;
    });

    const response: TProvisionResponse = { status: "queued", requestId: result };
    return reply.status(202).send(response);
  });
}
