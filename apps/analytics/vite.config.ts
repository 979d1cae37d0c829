import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

import { precompress } from "../../scripts/lib/precompress.mjs";

// The embed page's own bundle: React + ECharts, served by the analytics server from /assets.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rollupOptions: { input: "web/main.tsx" },
  },
});
