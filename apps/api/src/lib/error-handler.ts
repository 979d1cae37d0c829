import { httpStatusCode } from "@portal/contracts";
import type { FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import { recordRefusal } from "../access/refusal-audit.ts";
import type { Database } from "../db/client.ts";
import { unavailableCause } from "./dependency-faults.ts";
import { AppError } from "./errors.ts";
import { answerUnavailable, notedUnavailable, noteRequestFault } from "./request-faults.ts";

/** One error body for the portal's own API: { error (readable), code (stable), requestId }. */
export function useErrorHandler(app: FastifyInstance, db: Database) {
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof AppError) {
      // Every refusal of a protected resource leaves an audit row (wrong role, CSRF, MFA enrolment...).
      if (error.status === 403) await recordRefusal(db, request, error);
      return reply
        .status(error.status)
        .send({ error: error.message, code: error.code, requestId: request.id });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ error: error.validation[0]!.message, code: "INVALID_INPUT", requestId: request.id });
    }
    if (error instanceof ZodError) {
      const first = error.issues[0];
      const where = first?.path.length ? `${first.path.join(".")}: ` : "";
      return reply.status(400).send({
        error: `${where}${first?.message ?? "Invalid request."}`,
        code: "INVALID_INPUT",
        requestId: request.id,
      });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (413 body too large, 415 media type, empty JSON body...): readable already.
      return reply
        .status(status)
        .send({ error: (error as Error).message, code: httpStatusCode(status), requestId: request.id });
    }
    // Explained once in the log when the answer is sent (lib/request-faults.ts), with anything noted before.
    noteRequestFault(request, { source: "handler", message: (error as Error).message, error });
    // The database away (restarting, refusing, cut off), here or inside Better Auth: 503, try again.
    const unavailable = unavailableCause(error) ?? notedUnavailable(request);
    if (unavailable) return answerUnavailable(request, reply, unavailable);
    return reply.status(status >= 500 ? status : 500).send({
      error: "Something went wrong on our side. Please try again.",
      code: "INTERNAL_ERROR",
      requestId: request.id,
    });
  });
}
