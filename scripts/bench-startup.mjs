// npm run bench:startup — time from `npm start` (scripts/start.mjs) to a served /login on a fresh data directory.
// Target: < 15 s. A bare Node HTTP server started the same way is timed in the same run as the baseline,
// so a slow or busy machine shows up in both figures.
import { existsSync } from "node:fs";
import path from "node:path";
import { freePort, root, spawnServer, startPortal, waitFor } from "./lib/serve.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
if (!existsSync(path.join(root, "apps/web/dist/index.html"))) {
  console.log("(the web app is not built yet: the first run includes the build)");
}

async function baselineOnce() {
  const port = await freePort();
  const started = performance.now();
  const server = spawnServer(process.execPath, [
    "-e",
    `require("http").createServer((q, s) => s.end("<div id=\\"root\\">")).listen(${port}, "127.0.0.1")`,
  ]);
  await waitFor(`http://127.0.0.1:${port}/login`, 10_000);
  const ms = performance.now() - started;
  await server.stop();
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const portal = [];
const baseline = [];
for (let i = 0; i < RUNS; i++) {
  const p = await startPortal();
  portal.push(p.ms);
  await p.stop();
  baseline.push(await baselineOnce());
  console.log(
    `run ${i + 1}: portal ${(p.ms / 1000).toFixed(2)} s, bare node server ${(baseline[i] / 1000).toFixed(2)} s`,
  );
}
const m = median(portal);
console.log(
  `startup to /login (fresh data dir): median ${(m / 1000).toFixed(2)} s over ${RUNS} runs (target < 15 s)`,
);
console.log(
  `bare node server baseline: median ${(median(baseline) / 1000).toFixed(2)} s; ratio ${(m / median(baseline)).toFixed(1)}x`,
);
console.log(m < 15_000 ? "PASS: under 15 s" : "OVER TARGET: 15 s");
