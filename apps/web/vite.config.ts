import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import type { IndexHtmlTransformContext, IndexHtmlTransformResult, Plugin, Rolldown } from "vite";

import { precompress } from "../../scripts/lib/precompress.mjs";

const api = "http://127.0.0.1:3000";
const page = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/**
 * `SIGN_IN_PATHS` of @portal/contracts, which Node cannot load into this config (TypeScript source); a test
 * keeps the two lists equal.
 */
export const DEV_SIGN_IN_PATHS = ["/login", "/admin-login", "/reset-password", "/invitation"];

/** The dev server answers the sign-in paths with the sign-in page, as the portal's server does (decision 004). */
function signInPage(): Plugin {
  return {
    name: "portal-sign-in-page",
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [pathname = "", query] = (req.url ?? "").split("?", 2);
        const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
        if (DEV_SIGN_IN_PATHS.includes(path))
          req.url = `/login.html${query === undefined ? "" : `?${query}`}`;
        next();
      });
    },
  };
}

/** A build-only plugin that rewrites the built pages last, with the build's base path. */
function builtPages(
  name: string,
  transform: (html: string, context: IndexHtmlTransformContext, base: string) => IndexHtmlTransformResult,
): Plugin {
  let base = "/";
  return {
    name,
    apply: "build",
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: { order: "post", handler: (html, context) => transform(html, context, base) },
  };
}

/**
 * The SPA's entry imports its root (React DOM) on demand, so that the route table can start the route's guard
 * and modules before React DOM has arrived; the page still asks for the root's files at once, beside the
 * entry's own (decision 015).
 */
function preloadSpaRoot(): Plugin {
  return builtPages("portal-preload-spa-root", (html, { bundle, chunk }, base) => {
    if (!bundle || chunk?.facadeModuleId !== page("index.html")) return html;
    const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === "chunk");
    const root = chunks.find((c) => c.facadeModuleId?.endsWith("/src/app/root.tsx"));
    if (!root) throw new Error("preloadSpaRoot: no chunk for src/app/root.tsx");
    const files = new Set<string>();
    const add = (file: string) => {
      if (files.has(file)) return;
      files.add(file);
      for (const imported of chunks.find((c) => c.fileName === file)?.imports ?? []) add(imported);
    };
    add(root.fileName);
    return [...files]
      .filter((file) => !html.includes(`"${base}${file}"`))
      .map((file) => ({
        tag: "link",
        attrs: { rel: "modulepreload", crossorigin: true, href: `${base}${file}` },
        injectTo: "head" as const,
      }));
  });
}

/**
 * The pages' stylesheet written into the page (`<style>`) instead of linked: nothing blocks the first paint of
 * 'Checking authentication...' or of the sign-in form, which Lighthouse's mobile throttling otherwise delays
 * by a round trip and the sheet's transfer (decision 015). The pages are revalidated on every load (no-cache),
 * so the sheet costs nothing more once cached. The file stays in the build for anything that links it.
 */
function inlineStylesheet(): Plugin {
  return builtPages("portal-inline-stylesheet", (html, { bundle }, base) => {
    if (!bundle) return html;
    return html.replace(/<link rel="stylesheet"(?: crossorigin)? href="([^"]+)">/g, (_link, href: string) => {
      const asset = bundle[href.startsWith(base) ? href.slice(base.length) : href];
      if (asset?.type !== "asset") throw new Error(`inlineStylesheet: ${href} is not in the build`);
      const css = typeof asset.source === "string" ? asset.source : new TextDecoder().decode(asset.source);
      if (/<\/style/i.test(css)) throw new Error(`inlineStylesheet: ${href} holds "</style"`);
      return `<style>${css}</style>`;
    });
  });
}

export default defineConfig({
  plugins: [react(), tailwindcss(), signInPage(), preloadSpaRoot(), inlineStylesheet(), precompress()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: true,
    proxy: { "/api": api, "/healthz": api },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // One stylesheet, in the pages themselves (inlineStylesheet): a route's modules loaded on demand do not
    // fetch it again and wait for it.
    cssCodeSplit: false,
    // Images are files of their own (served from 'self', cached for good), never data: URIs inside the
    // JavaScript: the sign-in page's scripts stay within their budget (decision 004).
    assetsInlineLimit: 0,
    // Two pages: the SPA, and the sign-in screens on their own without the SPA's router and query cache.
    rolldownOptions: {
      input: { index: page("index.html"), login: page("login.html") },
      // The libraries in chunks of their own, named for them: a release that changes only the portal's code
      // leaves them cached. React DOM apart from React, so the SPA's route table (React, React Router) can
      // start the route's guard and modules while React DOM still loads (decision 015). The back office's
      // screens are split where the route table loads them on demand: the client list no longer downloads
      // and runs the other screens' code (forms, import, sync, audit) and react-hook-form, 29 KB gzipped
      // (decision 015). The full-zod contracts are a chunk per file, so that a page builds only the schemas it
      // imports (zod builds each schema as its module runs): `/` and the client list no longer build the audit
      // log's, the import's, the sessions' and the settings' (decision 024).
      output: {
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/]react[\\/]/, priority: 3 },
            { name: "react-dom", test: /node_modules[\\/](react-dom|scheduler)[\\/]/, priority: 2 },
            // Not `react-router/dom` (its RouterProvider needs React DOM): it goes with the SPA's root.
            {
              name: "react-router",
              test: (id) => /node_modules[\\/]react-router[\\/]/.test(id) && !/dom-export/.test(id),
              priority: 1,
            },
            { name: "tanstack-query", test: /node_modules[\\/]@tanstack[\\/]/, priority: 1 },
            {
              name: (id: string) => `contracts-${/([\w-]+)\.ts$/.exec(id)?.[1] ?? "x"}`,
              test: /packages[\\/]contracts[\\/]src[\\/](admin|audit|branding-settings|colour-contrast|fields|import|invitations|people|provision|sessions)\.ts$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
