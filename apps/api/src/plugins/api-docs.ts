import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { Auth } from "../auth/auth.ts";
import { secondStepMissing } from "../auth/enrolment.ts";
import type { AppConfig } from "../config.ts";
import { forbidden, unauthenticated } from "../lib/errors.ts";
import { toWebHeaders } from "../lib/web-request.ts";

/** The OpenAPI document of every route, and its page at /api/docs when API_DOCS allows it. */
export async function apiDocs(app: FastifyInstance, { auth, config }: { auth: Auth; config: AppConfig }) {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Meridian client portal API",
        version: "1.0.0",
        description:
          "Admin back office API. Every route needs an admin session cookie or an admin Bearer JWT from /api/auth/token.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // The OpenAPI page maps the whole API: in production only with API_DOCS=1, and then for signed-in admins.
  if (config.apiDocs) {
    await app.register(fastifySwaggerUi, {
      routePrefix: "/api/docs",
      ...(config.isProduction && {
        uiHooks: {
          onRequest: async (request: FastifyRequest) => {
            const signedIn = await auth.api.getSession({ headers: toWebHeaders(request) });
            if (!signedIn) throw unauthenticated();
            if (signedIn.user.role !== "admin" || secondStepMissing(signedIn)) throw forbidden();
          },
        },
      }),
    });
  }
}
