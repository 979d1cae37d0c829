import {
  LOGO_MAX_BYTES,
  ZBrandingResponseSchema,
  ZBrandingUpdateRequestSchema,
  ZErrorResponseSchema,
} from "@portal/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../audit/actor.ts";
import { checkLogo, logoTooLarge } from "./logo.ts";
import type { BrandingStore } from "./store.ts";
import { requireRole } from "../plugins/authenticate.ts";

const errors = { 400: ZErrorResponseSchema, 401: ZErrorResponseSchema, 403: ZErrorResponseSchema };

/**
 * Firm branding for admins (/admin/settings, issue 13 point 4): name, primary colour and support email as
 * JSON; the logo as the file's bytes in the body, whatever its Content-Type says (the content decides).
 */
export const adminSettingsRoutes: FastifyPluginAsyncZod<{ branding: BrandingStore }> = async (
  app,
  { branding },
) => {
  // Authorization before anything is read: 401, 403, then the body (CODE_STYLE).
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/api/admin/settings",
    { schema: { tags: ["settings"], response: { 200: ZBrandingResponseSchema, ...errors } } },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return (await branding.current()).branding;
    },
  );

  app.put(
    "/api/admin/settings",
    {
      schema: {
        tags: ["settings"],
        body: ZBrandingUpdateRequestSchema,
        response: { 200: ZBrandingResponseSchema, ...errors },
      },
    },
    async (request) => (await branding.update(actorOf(request), request.body)).branding,
  );

  // The logo: the file's bytes as the body, of any declared type (the content decides, `checkLogo`). Its own
  // scope, so only this route reads bodies raw; a declared size over the limit is refused before the body is
  // read, with a message saying how large the file is.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: LOGO_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.put(
      "/api/admin/settings/logo",
      {
        bodyLimit: LOGO_MAX_BYTES,
        onRequest: async (request) => {
          const declared = Number(request.headers["content-length"] ?? 0);
          if (declared > LOGO_MAX_BYTES) logoTooLarge(declared);
        },
        schema: { tags: ["settings"], response: { 200: ZBrandingResponseSchema, ...errors } },
      },
      async (request) => {
        const body = request.body;
        const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
        return (await branding.replaceLogo(actorOf(request), checkLogo(bytes))).branding;
      },
    );
  });

  app.delete(
    "/api/admin/settings/logo",
    { schema: { tags: ["settings"], response: { 200: ZBrandingResponseSchema, ...errors } } },
    async (request) => (await branding.removeLogo(actorOf(request))).branding,
  );
};
