import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // CI runs the suite twice (embedded PGlite, then PostgreSQL) and names each report with VITEST_JSON.
    // Reports live in reports/, not test-results/, which Playwright empties when it starts.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON ?? "reports/vitest.json" }]],
  },
});
