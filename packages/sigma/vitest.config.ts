import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "sigma", include: ["test/**/*.test.ts"] } });
