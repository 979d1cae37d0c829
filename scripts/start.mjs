// `npm start`: builds what is missing, then runs the portal (migrations are applied at boot).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const webIndex = path.join(root, "apps/web/dist/index.html");

if (!existsSync(webIndex)) {
  console.log("Building the web app (first start)...");
  const build = spawnSync("npm", ["run", "build", "-w", "apps/web"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const child = spawn(process.execPath, [tsx, path.join(root, "apps/api/src/server.ts")], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
