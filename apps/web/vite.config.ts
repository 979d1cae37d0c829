import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import type { Plugin } from "vite";

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

export default defineConfig({
  plugins: [react(), tailwindcss(), signInPage(), precompress()],
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
    // Images are files of their own (served from 'self', cached for good), never data: URIs inside the
    // JavaScript: the sign-in page's scripts stay within their budget (decision 004).
    assetsInlineLimit: 0,
    // Two pages: the SPA, and the sign-in screens on their own without the SPA's router and query cache.
    rolldownOptions: { input: { index: page("index.html"), login: page("login.html") } },
  },
});
