import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/lib/chromium.mjs";

import {
  BASE_URL,
  E2E_ANALYTICS_PORT,
  E2E_PORT,
  E2E_NEW_ADMIN,
  E2E_SIGNIN_MAX_FAILURES,
  E2E_SMTP_PORT,
} from "./e2e/support/env.ts";

const root = path.dirname(fileURLToPath(import.meta.url));

// One fresh directory per run (database and received mail). The runner creates it; worker processes
// inherit the path through the environment, so every process of the run agrees on it.
// Directories of runs that started over an hour ago are removed (a run takes minutes; each leaves ~40 MB).
if (!process.env.E2E_RUN_DIR) {
  const tmp = path.join(root, ".tmp");
  mkdirSync(tmp, { recursive: true });
  for (const name of readdirSync(tmp)) {
    const dir = path.join(tmp, name);
    if (name.startsWith("e2e-") && Date.now() - statSync(dir).mtimeMs > 60 * 60 * 1000) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  process.env.E2E_RUN_DIR = mkdtempSync(path.join(tmp, "e2e-"));
}
const runDir = process.env.E2E_RUN_DIR;

const baseURL = BASE_URL;

export default defineConfig({
  testDir: "e2e",
  // `CAPTURE_SCREENSHOTS=1 npx playwright test` refreshes docs/screenshots instead of running the journeys.
  testMatch: process.env.CAPTURE_SCREENSHOTS ? "**/*.capture.ts" : "**/*.spec.ts",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  // Generous: password hashing is deliberately slow and CI machines are shared.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // Debian's Chromium; Playwright's own browser downloads are never used.
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: "chromium", use: { viewport: { width: 1280, height: 800 } } }],
  webServer: [
    {
      command: "node scripts/start.mjs",
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(E2E_PORT),
        HOST: "127.0.0.1",
        PUBLIC_URL: baseURL,
        DATA_DIR: path.join(runDir, "data"),
        DEMO_DATA: "on",
        SIGNUP_ALLOWED_DOMAINS: "meridian-advisory.example",
        SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
        ANALYTICS_PORT: String(E2E_ANALYTICS_PORT),
        LOG_LEVEL: "warn",
        // Every test signs in from 127.0.0.1: lift the per-IP limit (30/min by default) so parallel
        // journeys do not trip it. The per-account lock-out has its own test.
        AUTH_IP_LIMIT_PER_MINUTE: "1000",
        SIGNIN_MAX_FAILURES: String(E2E_SIGNIN_MAX_FAILURES),
        // An admin that sets up two-step verification on its first sign-in (e2e/two-factor.spec.ts).
        ADMIN_EMAIL: E2E_NEW_ADMIN.email,
        ADMIN_PASSWORD: E2E_NEW_ADMIN.password,
      },
    },
    {
      // start.mjs brings the analytics server up after the portal; journeys start once both answer.
      // The command only holds the slot: the server itself belongs to the entry above.
      command: `node -e "setInterval(() => {}, 1 << 30)"`,
      url: `http://127.0.0.1:${E2E_ANALYTICS_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});
