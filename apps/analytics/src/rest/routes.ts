import type { FastifyInstance } from "fastify";
import type { AnalyticsConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { registerAccountTypeRoutes } from "./account-types.ts";
import { registerAuthRoutes, requireAccessToken } from "./auth.ts";
import { registerGrantRoutes } from "./grants.ts";
import { registerMemberRoutes } from "./members.ts";
import { ApiError, restContext, sendError } from "./shared.ts";
import { registerTeamRoutes } from "./teams.ts";
import { registerUserAttributeRoutes } from "./user-attributes.ts";
import { registerWorkbookRoutes } from "./workbooks.ts";

export { API_TOKEN_SECONDS } from "./auth.ts";

/**
 * The part of Sigma's REST API the portal uses, under /v2, answering in the shapes of Sigma's published
 * definition: token, members, teams and their members, workbooks, grants, account types, user attributes.
 * Errors are Sigma's ApiError `{message, code, requestId}`.
 */
export function registerRestRoutes(
  app: FastifyInstance,
  deps: { config: AnalyticsConfig; db: Database },
): void {
  const ctx = restContext(deps.config, deps.db);
  app.register(
    async (v2) => {
      v2.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "string" },
        (_request, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        },
      );
      v2.setErrorHandler((error, request, reply) => {
        if (error instanceof ApiError) return sendError(reply, request, error);
        const status = (error as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500) {
          return sendError(reply, request, new ApiError(status, "The request could not be read."));
        }
        request.log.error({ err: error }, "REST API error");
        return sendError(reply, request, new ApiError(500, "Internal error."));
      });
      v2.setNotFoundHandler((request, reply) => sendError(reply, request, new ApiError(404, "Not found.")));
      v2.addHook("onRequest", async (request) => {
        if (request.routeOptions.url === "/v2/auth/token") return;
        await requireAccessToken(request, ctx);
      });

      registerAuthRoutes(v2, ctx);
      registerMemberRoutes(v2, ctx);
      registerTeamRoutes(v2, ctx);
      registerWorkbookRoutes(v2, ctx);
      registerGrantRoutes(v2, ctx);
      registerAccountTypeRoutes(v2, ctx);
      registerUserAttributeRoutes(v2, ctx);
    },
    { prefix: "/v2" },
  );
}
