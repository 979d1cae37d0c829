import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest's own order (larger and slower files first), except that the multi-instance tests start first: they
 * spend minutes waiting (a five-minute BI outage, instances restarting), which then overlaps the other files
 * instead of trailing after them (CI's PostgreSQL phase took 19 minutes with them last).
 */
class LongWaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification) => /[\\/]test[\\/]instances[\\/]/.test(file.moduleId);
    return [...sorted.filter(waits), ...sorted.filter((file) => !waits(file))];
  }
}

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    sequence: { sequencer: LongWaitsFirst },
    // CI runs the suite twice (embedded PGlite, then PostgreSQL) and names each report with VITEST_JSON.
    // Reports live in reports/, not test-results/, which Playwright empties when it starts.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON ?? "reports/vitest.json" }]],
  },
});
