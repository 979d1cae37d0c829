import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const api = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    // The server's CSP allows images from 'self' and data: only; small SVGs may be inlined as data: URIs.
    assetsInlineLimit: 4096,
  },
});
