import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "analytics",
    include: ["test/**/*.test.ts"],
    // Builds the embed front end once before the files run (the browser tests load it).
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
