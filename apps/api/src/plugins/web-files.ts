import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { signInPathOf, workbookStartPath } from "@portal/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUnder, pathOf } from "../lib/canonical-url.ts";

/** Fetches started by the page's answer, which the SPA's own requests then take (lib/session-request.ts). */
const preload = (path: string) => `<${path}>; rel=preload; as=fetch; crossorigin=use-credentials`;

/**
 * What a page that shows a workbook has the browser do as soon as the answer's headers arrive, before any of
 * its scripts (decision 024): open the connection to the BI service's origin and, for someone signed in whom
 * the page will show a workbook (no admin, nobody who must first set up or use their second step), ask for
 * the session and for the start of the view (the workbook list and the first frame's one-time URL, GET
 * /api/me/workbook-start), which the SPA would otherwise ask for one after the other once its scripts ran.
 * The path is built from the address the browser sent, as the SPA builds it from its location.
 */
async function workbookPageLinks(
  app: FastifyInstance,
  request: FastifyRequest,
  embedOrigin: string | undefined,
): Promise<string | null> {
  const [pathname = "/", query = ""] = (request.originalUrl ?? request.url).split("?", 2);
  const start = workbookStartPath(pathname, query);
  if (!start) return null;
  const links = embedOrigin ? [`<${embedOrigin}>; rel=preconnect`] : [];
  // The page is served whatever happens to the session check (a database away is the API's to report).
  const principal = await app.cookiePrincipal(request).catch(() => null);
  const opens = principal?.secondStep === "enrolled" || principal?.secondStep === "optional";
  if (principal && principal.role !== "admin" && opens)
    links.push(preload("/api/auth/get-session"), preload(start));
  return links.length > 0 ? links.join(", ") : null;
}

/**
 * The built web app (`webDist`): its assets, index.html for client-side routes, login.html for the sign-in
 * screens, and the API's 404 body for everything else.
 */
export async function webFiles(
  app: FastifyInstance,
  webDist: string | undefined,
  { embedOrigin }: { embedOrigin?: string } = {},
) {
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
  app.setNotFoundHandler(async (request, reply) => {
    const path = pathOf(request.url); // canonical (rewriteUrl), as the router and the guard read it
    const isApi = isUnder(path, "/api");
    // A missing build asset is a 404, never index.html (which the browser would reject as a script).
    const isAsset = isUnder(path, "/assets");
    if (!isApi && !isAsset && hasWeb && (request.method === "GET" || request.method === "HEAD")) {
      // The sign-in screens are their own small page (decision 004); every other client-side route
      // (including the SPA's own 404 page) is served by index.html.
      const signIn = hasSignInPage && signInPathOf(path) !== null;
      const links = signIn ? null : await workbookPageLinks(app, request, embedOrigin);
      if (links) reply.header("link", links);
      // Always revalidated, so a new release's asset names are picked up (sendFile's own header is off).
      return reply
        .header("cache-control", "no-cache")
        .sendFile(signIn ? "login.html" : "index.html", { cacheControl: false });
    }
    return reply.status(404).send({ error: "Not found.", code: "NOT_FOUND", requestId: request.id });
  });
}
