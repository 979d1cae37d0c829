import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { signInPathOf } from "@portal/contracts";
import type { FastifyInstance } from "fastify";
import { isUnder, pathOf } from "../lib/canonical-url.ts";

/**
 * The built web app (`webDist`): its assets, index.html for client-side routes, login.html for the sign-in
 * screens, and the API's 404 body for everything else.
 */
export async function webFiles(app: FastifyInstance, webDist: string | undefined) {
  const hasWeb = webDist && existsSync(path.join(webDist, "index.html"));
  if (hasWeb) {
    const assets = path.join(path.resolve(webDist), "assets") + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes `.br` and `.gz` beside each text file (apps/web/vite.config.ts).
      preCompressed: true,
      // Vite names every built asset after its content, so a changed file gets a new name: browsers may
      // keep assets for good. Other files (the favicon) are revalidated.
      setHeaders: (reply, filePath) => {
        if (filePath.startsWith(assets)) reply.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
  const hasSignInPage = hasWeb && existsSync(path.join(webDist, "login.html"));
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url); // canonical (rewriteUrl), as the router and the guard read it
    const isApi = isUnder(path, "/api");
    // A missing build asset is a 404, never index.html (which the browser would reject as a script).
    const isAsset = isUnder(path, "/assets");
    if (!isApi && !isAsset && hasWeb && (request.method === "GET" || request.method === "HEAD")) {
      // The sign-in screens are their own small page (decision 004); every other client-side route
      // (including the SPA's own 404 page) is served by index.html.
      const signIn = hasSignInPage && signInPathOf(path) !== null;
      // Always revalidated, so a new release's asset names are picked up (sendFile's own header is off).
      return reply
        .header("cache-control", "no-cache")
        .sendFile(signIn ? "login.html" : "index.html", { cacheControl: false });
    }
    return reply.status(404).send({ error: "Not found.", code: "NOT_FOUND", requestId: request.id });
  });
}
