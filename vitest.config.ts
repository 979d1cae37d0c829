import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // CI runs the suite twice (embedded PGlite, then PostgreSQL) and names each report with VITEST_JSON.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON ?? "test-results/vitest.json" }]],
  },
});
