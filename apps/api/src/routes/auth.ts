import type { FastifyInstance, FastifyRequest } from "fastify";
import { httpStatusCode, isApiErrorCode, type ApiErrorCode } from "@portal/contracts";
import type { Auth } from "../auth/auth.ts";
import { recordAudit } from "../audit/audit.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { answerUnavailable, notedUnavailable, noteRequestFault } from "../lib/request-faults.ts";
import { sendWebResponse, toWebRequest } from "../lib/web-request.ts";

export interface AuthRoutesOptions {
  auth: Auth;
  db: Database;
  config: AppConfig;
}

const GENERIC_ERROR = "Something went wrong on our side. Please try again.";

/**
 * Better Auth answers errors as `{ code, message }` (or nothing at all): the portal's error body is
 * `{ error, code, requestId }`. `message` stays beside `error` for Better Auth's own client library.
 */
async function portalErrorBody(response: Response, request: FastifyRequest): Promise<string> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown; message?: unknown } | null;
  const message =
    response.status >= 500
      ? GENERIC_ERROR
      : typeof body?.message === "string" && body.message
        ? body.message
        : response.statusText || "The request was refused.";
  // Only codes on the contract's list reach the client; another becomes its status's name.
  const code: ApiErrorCode = isApiErrorCode(body?.code)
    ? body.code
    : response.status === 429
      ? "RATE_LIMITED"
      : httpStatusCode(response.status);
  return JSON.stringify({ error: message, code, message, requestId: request.id });
}

/**
 * Better Auth handles everything under /api/auth; what the portal adds around its endpoints (the
 * per-account lock, the two-step gate, the password policy, the audit) lives in its hooks
 * (`auth/hooks/`). This route only carries the request across, gives errors the portal's body, and
 * records the refusals of Better Auth's per-IP limiter, which answers before any hook runs.
 */
export async function authRoutes(app: FastifyInstance, { auth, db, config }: AuthRoutesOptions) {
  // Better Auth parses form bodies itself (sign-ins may be posted as forms; Apple posts its callback so).
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    config: { public: true },
    handler: async (request, reply) => {
      let response = await auth.handler(toWebRequest(request, config.publicUrl));
      if (response.status >= 500) {
        // Better Auth answers its own failures 500 with a generic body; what it logged on the way (through
        // the portal's logger, auth/auth.ts) says why. The database away is a 503, as on every other route.
        const unavailable = notedUnavailable(request);
        // (A guess the lock counted was never judged: it is given back, and the person may simply retry.)
        if (unavailable) return answerUnavailable(request, reply, unavailable);
        const body = (await response
          .clone()
          .json()
          .catch(() => null)) as { code?: unknown; message?: unknown } | null;
        noteRequestFault(request, {
          source: "better-auth",
          message: `Better Auth answered ${response.status}${typeof body?.code === "string" ? ` ${body.code}` : ""}`,
        });
      }
      if (!response.ok && response.status >= 400) {
        const headers = new Headers(response.headers);
        headers.set("content-type", "application/json");
        headers.delete("content-length");
        // Better Auth's per-IP limiter says X-Retry-After; the lock's own 429 carries Retry-After already.
        const perIpRetryAfter = headers.get("x-retry-after");
        if (perIpRetryAfter) {
          headers.set("retry-after", perIpRetryAfter);
          await recordAudit(db, {
            action: "auth.request_refused",
            outcome: "rate_limited",
            details: { path: (request.url.split("?")[0] ?? "").slice("/api/auth".length), status: 429 },
            ip: request.ip,
            userAgent: request.headers["user-agent"] ?? null,
            requestId: request.id,
          });
        }
        response = new Response(await portalErrorBody(response, request), {
          status: response.status,
          headers,
        });
      }
      return sendWebResponse(reply, response);
    },
  });
}
