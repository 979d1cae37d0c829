import type { FastifyInstance } from "fastify";
import type { BrandingStore } from "./store.ts";

/** The served SVG may draw and nothing else: no script, no loads, not even when opened as a page of its own. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

const YEAR = 31_536_000;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag) ?? false;
}

/**
 * The firm's branding for everyone (issue 13 point 4, decision 014): the sign-in page reads it before anyone
 * signs in, so these routes are public. Both answers are validated (ETag), so a change shows at the next load.
 */
export async function brandingRoutes(app: FastifyInstance, { branding }: { branding: BrandingStore }) {
  app.get("/api/branding", { config: { public: true } }, async (request, reply) => {
    const { branding: body, etag } = await branding.current();
    // Shared caches may keep it, but must ask again each time: a new colour shows at once.
    reply.header("cache-control", "public, no-cache").header("etag", etag);
    if (matches(request.headers["if-none-match"], etag)) return reply.status(304).send();
    return body;
  });

  app.get<{ Querystring: { v?: string } }>(
    "/api/branding/logo",
    { config: { public: true } },
    async (request, reply) => {
      const { logo } = await branding.current();
      if (!logo) {
        return reply
          .status(404)
          .header("cache-control", "no-cache")
          .send({ error: "The firm has no logo of its own.", code: "NOT_FOUND", requestId: request.id });
      }
      const etag = `"${logo.sha256.slice(0, 32)}"`;
      // The versioned URL (`?v=` of this logo) never changes content; any other spelling is revalidated.
      const versioned = request.query.v === logo.sha256.slice(0, 16);
      reply
        .header("cache-control", versioned ? `public, max-age=${YEAR}, immutable` : "public, no-cache")
        .header("etag", etag)
        .header("x-content-type-options", "nosniff")
        .header("cross-origin-resource-policy", "same-origin")
        .header("content-type", logo.type);
      if (logo.type === "image/svg+xml") reply.header("content-security-policy", SVG_CSP);
      if (matches(request.headers["if-none-match"], etag)) return reply.status(304).send();
      return reply.send(logo.bytes);
    },
  );
}
