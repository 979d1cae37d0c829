import { SELF_SIGN_UP_ROLES, ZProvisionRequestSchema, type TProvisionResponse } from "@portal/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { queueSelfSignUpProvisioning } from "./self-sign-up.ts";
import type { Database } from "../db/client.ts";
import { AppError, forbidden } from "../lib/errors.ts";

/**
 * POST /api/sigma/provision — the spec's provisioning call after Create Account, with the bearer token.
 * The portal also queues it itself when a self-registered person confirms their email (auth.ts).
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

    const result = await queueSelfSignUpProvisioning(
      db,
      { userId: principal.userId, email: principal.email },
      body,
      { ip: request.ip, userAgent: request.headers["user-agent"] ?? null, requestId: request.id },
    );

    const response: TProvisionResponse = { status: "queued", requestId: result };
    return reply.status(202).send(response);
  });
}
