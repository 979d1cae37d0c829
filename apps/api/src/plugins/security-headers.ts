import type { FastifyInstance } from "fastify";
import helmet from "helmet";
import type { AppConfig } from "../config.ts";

/**
 * Security headers on every answer. The middleware is built once here: the Fastify wrapper rebuilt
 * it (re-parsing the CSP) on every request, which showed in the embed benchmark's profile.
 */
export function useSecurityHeaders(app: FastifyInstance, config: AppConfig) {
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix injects a <style> element to lock page scroll under modals; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        // Only the configured BI service (Sigma or the built-in analytics server) may be framed.
        frameSrc: ["'self'", new URL(config.sigma.embedBaseUrl).origin],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    strictTransportSecurity: config.publicUrl.startsWith("https://"),
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  app.addHook("onRequest", (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
}
