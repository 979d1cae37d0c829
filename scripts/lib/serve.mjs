// Starts the portal (`scripts/start.mjs`) on a free port with a fresh data directory, for benchmarks.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitFor(url, timeoutMs, expectText) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok && (!expectText || (await res.text()).includes(expectText))) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Spawns a command (in `cwd`); returns the child and a stop() that kills its process group and cleans up. */
export function spawnServer(command, args, env, cwd = root) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          resolve();
        }
      }),
  };
}

/**
 * `npm start` of the checkout at `checkout` (this one unless told: a baseline worktree) on free ports, with a
 * data directory of its own.
 */
export async function startPortal(extraEnv = {}, { checkout = root } = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-bench-"));
  const started = performance.now();
  const server = spawnServer(
    process.execPath,
    [path.join(checkout, "scripts/start.mjs")],
    {
      PORT: String(port),
      // Its own analytics port too, so a portal already running on this machine does not get in the way.
      ANALYTICS_PORT: String(await freePort()),
      // The built-in analytics server lets only this portal frame its workbooks.
      ANALYTICS_ALLOWED_PARENT_ORIGINS: `http://127.0.0.1:${port}`,
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    checkout,
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/login`, 60_000, '<div id="root">');
  } catch (error) {
    await server.stop();
    throw new Error(`${error.message}\n${server.output()}`);
  }
  const ms = performance.now() - started;
  return {
    url,
    ms,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
