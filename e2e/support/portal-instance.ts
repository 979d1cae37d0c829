import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "@playwright/test";

import { runDir } from "./env.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type TPortalInstance = {
  /** The portal's origin (sign-in, SPA and API). */
  url: string;
  /** Its built-in analytics server's origin. */
  analyticsOrigin: string;
  stop: () => Promise<void>;
};

/**
 * A portal of its own, with its own built-in analytics server and database (`npm start`, as
 * playwright.config.ts runs the suite's), for a journey that needs a setting the suite's server does not
 * have. Started by that journey in its worker, so no other journey waits for it or shares its state; the
 * demo firm is seeded as in the suite's server. Resolves once both servers answer.
 */
export async function startPortalInstance(options: {
  name: string;
  port: number;
  analyticsPort: number;
  env: Record<string, string>;
}): Promise<TPortalInstance> {
  const url = `http://127.0.0.1:${options.port}`;
  const analyticsOrigin = `http://127.0.0.1:${options.analyticsPort}`;
  const child = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: path.join(runDir(), options.name),
      DEMO_DATA: "on",
      // The smallest demo firm: this instance starts beside the suite's own, on the same cores.
      ANALYTICS_DEMO_SIZE: "tiny",
      ANALYTICS_PORT: String(options.analyticsPort),
      LOG_LEVEL: "warn",
      AUTH_IP_LIMIT_PER_MINUTE: "1000",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(killer);
  };

  try {
    for (const health of [`${url}/healthz`, `${analyticsOrigin}/healthz`]) {
      await expect
        .poll(
          async () => {
            if (child.exitCode !== null)
              throw new Error(`${options.name} stopped while starting:\n${stderr}`);
            try {
              return (await fetch(health)).status;
            } catch {
              return 0;
            }
          },
          { message: `${health} answers`, timeout: 170_000, intervals: [500, 1000] },
        )
        .toBe(200);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, analyticsOrigin, stop };
}
