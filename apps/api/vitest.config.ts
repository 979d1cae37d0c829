import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "api",
    include: ["test/**/*.test.ts"],
    // Several real portal processes need one PostgreSQL server for all of them (PGlite is in-process):
    // the multi-instance tests run with the database tests on PostgreSQL (CI, npm run test:pg).
    exclude: process.env.TEST_DATABASE_URL ? [] : ["test/instances/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files run in parallel, each with its own database.
    fileParallelism: true,
  },
});
