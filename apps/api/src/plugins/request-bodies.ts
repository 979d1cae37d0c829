import { textProblem, ZFullNameSchema } from "@portal/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isUnder, pathOf } from "../lib/canonical-url.ts";
import { jsonNestsDeeperThan } from "../lib/json-depth.ts";
import { AppError } from "../lib/errors.ts";

/** No portal or Better Auth body nests deeper than 3; 32 leaves room and stops stack-deep payloads. */
export const MAX_JSON_DEPTH = 32;

/** The route Better Auth answers on (`routes/auth.ts`); its bodies are not described by a zod contract. */
const AUTH_ROUTE = "/api/auth/*";

/** Readable names of the fields Better Auth's endpoints take, for the 400 that names one. */
const AUTH_FIELD_LABELS: Record<string, string> = {
  name: "Full name",
  email: "Email",
  password: "Password",
  newPassword: "New password",
  currentPassword: "Current password",
  code: "Code",
  token: "Token",
  callbackURL: "callbackURL",
  redirectTo: "redirectTo",
};

/**
 * Every request body, on every route (Better Auth's included), is held to the same limits before anything
 * reads it: Fastify's `bodyLimit` for size (set in app.ts), this JSON parser for nesting depth, and, for
 * `/api/auth/*` bodies, the shared text rules of `@portal/contracts` (no NUL, control characters or broken
 * surrogates in any field, answered 400 naming the field) so such text never reaches Better Auth or
 * PostgreSQL. Portal routes apply the same rules through their zod contracts.
 */
export const requestBodies = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(
        new AppError(400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, "BODY_TOO_DEEP"),
        undefined,
      );
      return;
    }
    parseJson(request, body as string, (error, value) => {
      if (error) {
        const poisoned = /__proto__|constructor/i.test(error.message);
        done(
          new AppError(
            400,
            poisoned
              ? "The request body uses a key that is not allowed (__proto__ or constructor.prototype)."
              : "The request body is not valid JSON.",
            "INVALID_JSON",
          ),
          undefined,
        );
        return;
      }
      done(null, value);
    });
  });

  app.addHook("preValidation", async (request) => {
    if (request.routeOptions.url !== AUTH_ROUTE || request.body === undefined || request.body === null)
      return;
    const { keys, fields } = authBodyFields(request);
    for (const key of keys) {
      const problem = textProblem(key, "A field name");
      if (problem) throw new AppError(400, problem, "INVALID_INPUT");
    }
    for (const [key, value] of fields) {
      if (typeof value !== "string") continue;
      const problem = textProblem(value, AUTH_FIELD_LABELS[key] ?? `The field "${key.slice(0, 40)}"`);
      if (problem) throw new AppError(400, problem, "INVALID_INPUT");
    }
    // Self sign-up stores the name as given: the same limits as the Create Account form.
    if (isUnder(pathOf(request.url), "/api/auth/sign-up")) {
      const name = fields.find(([key]) => key === "name")?.[1];
      const checked = typeof name === "string" ? ZFullNameSchema.safeParse(name) : undefined;
      if (checked && !checked.success) {
        throw new AppError(
          400,
          checked.error.issues[0]?.message ?? "Full name is not valid.",
          "INVALID_INPUT",
        );
      }
    }
  });
});

/** The field names and (name, value) pairs of an /api/auth body as Better Auth will read it, nesting flattened. */
function authBodyFields(request: FastifyRequest): { keys: string[]; fields: [string, unknown][] } {
  const body = request.body;
  if (typeof body === "string") {
    const type = String(request.headers["content-type"] ?? "").toLowerCase();
    if (!type.startsWith("application/x-www-form-urlencoded")) return { keys: [], fields: [["body", body]] };
    const fields = [...new URLSearchParams(body)];
    return { keys: fields.map(([key]) => key), fields };
  }
  const keys: string[] = [];
  const fields: [string, unknown][] = [];
  const walk = (value: unknown, key: string) => {
    if (Array.isArray(value)) value.forEach((item) => walk(item, key));
    else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        keys.push(k);
        walk(v, k);
      }
    } else fields.push([key, value]);
  };
  walk(body, "body");
  return { keys, fields };
}
