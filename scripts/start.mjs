// `npm start`: builds what is missing, then runs the portal and — unless a Sigma org is configured —
// the built-in analytics server on its own port. Migrations are applied by each server at boot.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const builtIn = !process.env.SIGMA_EMBED_BASE_URL;

function buildIfMissing(workspace, output) {
  if (existsSync(path.join(root, output))) return;
  console.log(`Building ${workspace} (first start)...`);
  const build = spawnSync("npm", ["run", "build", "-w", workspace], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

buildIfMissing("apps/web", "apps/web/dist/index.html");
if (builtIn) buildIfMissing("apps/analytics", "apps/analytics/dist/.vite/manifest.json");

const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const children = [];
let stopping = false;

function run(name, entry) {
  const child = spawn(process.execPath, [tsx, path.join(root, entry)], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  children.push(child);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    // One part stopping takes the other down, so the portal never runs half-started.
    stopping = true;
    if (code !== 0) console.error(`The ${name} stopped (${signal ?? `exit code ${code}`}).`);
    for (const other of children) if (other !== child && other.exitCode === null) other.kill("SIGTERM");
    process.exitCode = code ?? 1;
  });
}

run("portal", "apps/api/src/server.ts");

// The analytics server starts once the portal answers, so the two do not compete for the CPU while
// the portal boots (sign-in is up first; workbooks follow a few seconds later).
async function startAnalyticsWhenPortalIsUp() {
  const host = process.env.HOST ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${process.env.PORT ?? 3000}/healthz`;
  for (let i = 0; i < 1200 && !stopping; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!stopping) run("analytics server", "apps/analytics/src/main.ts");
}
if (builtIn) void startAnalyticsWhenPortalIsUp();

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  });
}
