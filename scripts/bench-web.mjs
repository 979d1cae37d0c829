// npm run bench:web — the web targets, each printed next to its target:
// - gzipped JavaScript that /login actually loads in Chromium (≤ 120 KB);
// - navigation to `/` as a client until the workbook frame posts `workbook:dataloaded`, median of
//   BENCH_RUNS (default 5) with a cold cache (a new browser context each time) and warm (the same context
//   navigating again): < 0.8 s cold, < 0.4 s warm;
// - gzipped JavaScript the analytics page loads (≤ 150 KB);
// - Lighthouse, mobile (its default form factor and simulated throttling), performance and accessibility of
//   /login, / (signed-in client) and /admin/client-list (signed-in admin): ≥ 95 and 100, the median of
//   BENCH_LIGHTHOUSE_RUNS (default 3) runs a page and the lowest accessibility score.
/* global window */
// BENCH_LIGHTHOUSE=0 skips Lighthouse. The machine is shared: read the figures with the load in mind.
import os from "node:os";
import { gzipSync } from "node:zlib";
import { createOTP } from "@better-auth/utils/otp";
import { chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { tsImport } from "tsx/esm/api";
import { chromiumLaunchOptions } from "./lib/chromium.mjs";
import { freePort, startPortal, waitFor } from "./lib/serve.mjs";

// The demo people (a TypeScript module of the contracts package).
const { DEMO_ADMIN, DEMO_CLIENTS } = await tsImport("../packages/contracts/src/demo.ts", import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
if (!Number.isInteger(LIGHTHOUSE_RUNS) || LIGHTHOUSE_RUNS < 1)
  throw new Error("BENCH_LIGHTHOUSE_RUNS must be a whole number, 1 or more");
const KB = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const verdict = (ok) => (ok ? "PASS" : "MISSED");
const results = [];
const report = (what, value, target, ok) => {
  results.push({ what, value, target, ok });
  console.log(`${verdict(ok).padEnd(6)} ${what}: ${value} (target ${target})`);
};

/** Gzipped size of every script a page loads, by origin. */
function recordScripts(page, scripts) {
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.body().catch(() => null);
    if (!body) return;
    const url = new URL(response.url());
    scripts.push({
      origin: url.origin,
      path: url.pathname,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
    });
  });
}

/**
 * One Lighthouse run of a page. Lighthouse's own trace errors (NO_NAVSTART, NO_FCP on a headless start) are not
 * the page's score: printed, and the page measured again, twice at most.
 */
async function lighthouseRun(url, flags, label) {
  let result;
  for (let attempt = 1; attempt <= 3; attempt++) {
    result = await lighthouse(url, flags);
    const error = result?.lhr.runtimeError;
    if (!error) break;
    console.log(`       Lighthouse error on ${label} (attempt ${attempt}): ${error.code} ${error.message}`);
  }
  return result;
}

/** The session cookies of a signed-in person, as one Cookie header (with the second step for the admin). */
async function signIn(baseUrl, account) {
  const jar = new Map();
  const post = async (path, body) => {
    const res = await fetch(`${baseUrl}/api/auth${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: baseUrl,
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
      body: JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const answer = await post("/sign-in/email", { email: account.email, password: account.password });
  if (answer?.twoFactorRedirect) {
    await post("/two-factor/verify-totp", { code: await createOTP(account.totpSecret).totp() });
  }
  return [...jar].map(([name, value]) => ({ name, value }));
}

const analyticsPort = await freePort();
const portal = await startPortal({ ANALYTICS_PORT: String(analyticsPort) });
const browser = await chromium.launch(chromiumLaunchOptions).catch(async (error) => {
  await portal.stop();
  throw error;
});
try {
  console.log(
    `portal at ${portal.url}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );

  // 1. JavaScript loaded by /login.
  {
    const page = await browser.newPage();
    const scripts = [];
    recordScripts(page, scripts);
    await page.goto(`${portal.url}/login`, { waitUntil: "networkidle" });
    for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) {
      console.log(`${KB(s.gzip).padStart(10)} gz  ${KB(s.raw).padStart(10)}  ${s.path}`);
    }
    const total = scripts.reduce((n, s) => n + s.gzip, 0);
    report("JS loaded by /login, gzipped", KB(total), "≤ 120 KB", total <= 120 * 1024);
    await page.close();
  }

  // 2. Navigation to / until the workbook frame's data has loaded, cold and warm; the frame's JavaScript.
  // The built-in analytics server makes its demo data on first start: measured once it answers.
  await waitFor(`http://127.0.0.1:${analyticsPort}/healthz`, 300_000);
  const client = DEMO_CLIENTS[0];
  const cookiesOf = async (account) =>
    (await signIn(portal.url, account)).map((c) => ({ ...c, url: portal.url }));
  const cookies = await cookiesOf(client);
  /** Milliseconds from the navigation's start to the frame's `workbook:dataloaded`, seen by the portal. */
  const timeToData = async (page) => {
    await page.goto(`${portal.url}/`);
    try {
      const handle = await page.waitForFunction(() => window.__dataLoadedAt, undefined, { timeout: 60_000 });
      return await handle.jsonValue();
    } catch (error) {
      const state = await page
        .locator("[data-embed-state]")
        .getAttribute("data-embed-state")
        .catch(() => "?");
      const alert = await page
        .getByRole("alert")
        .allTextContents()
        .catch(() => []);
      throw new Error(`no workbook:dataloaded at ${page.url()} (view ${state}; ${alert.join(" ")})`, {
        cause: error,
      });
    }
  };
  const listen = () => {
    window.addEventListener("message", (e) => {
      if (e.data?.type === "workbook:dataloaded" && !window.__dataLoadedAt)
        window.__dataLoadedAt = performance.now();
    });
  };
  /** A new browser context (a cold cache) signed in with `signedIn`, listening for the frame's data. */
  const clientContext = async (signedIn) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies(signedIn);
    await context.addInitScript(listen);
    return context;
  };
  const cold = [];
  const warm = [];
  const frameScripts = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await clientContext(cookies);
    const page = await context.newPage();
    if (i === 0) recordScripts(page, frameScripts);
    cold.push(await timeToData(page));
    warm.push(await timeToData(page));
    await context.close();
  }
  const fmt = (xs) => `${Math.round(median(xs))} ms (runs: ${xs.map((x) => Math.round(x)).join(", ")})`;
  report("navigation to workbook:dataloaded, cold cache, median", fmt(cold), "< 800 ms", median(cold) < 800);
  report("navigation to workbook:dataloaded, warm cache, median", fmt(warm), "< 400 ms", median(warm) < 400);
  // Not a target: the built-in server keeps a page's results (decision 016), so after the first run above the
  // frame's queries were answered from memory. Each of these clients opens their workbook for the first time.
  const firstViews = [];
  for (const other of DEMO_CLIENTS.slice(1, 4)) {
    const context = await clientContext(await cookiesOf(other));
    firstViews.push(await timeToData(await context.newPage()));
    await context.close();
  }
  console.log(`       a client's first view (cold cache, results computed): ${fmt(firstViews)}`);
  // Each script once (the cold and the warm navigation load the same files).
  const analytics = [
    ...new Map(frameScripts.filter((s) => s.origin !== portal.url).map((s) => [s.path, s])).values(),
  ];
  for (const s of analytics)
    console.log(`${KB(s.gzip).padStart(10)} gz  ${KB(s.raw).padStart(10)}  ${s.origin}${s.path}`);
  const analyticsTotal = analytics.reduce((n, s) => n + s.gzip, 0);
  report("JS of the analytics page, gzipped", KB(analyticsTotal), "≤ 150 KB", analyticsTotal <= 150 * 1024);

  // 3. Lighthouse, mobile.
  if (process.env.BENCH_LIGHTHOUSE !== "0") {
    const admin = await signIn(portal.url, DEMO_ADMIN);
    const chrome = await chromeLauncher.launch({
      chromePath: chromiumLaunchOptions.executablePath,
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
    });
    try {
      for (const [path, who] of [
        ["/login", null],
        ["/", cookies],
        ["/admin/client-list", admin],
      ]) {
        const flags = {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          ...(who ? { extraHeaders: { Cookie: who.map((c) => `${c.name}=${c.value}`).join("; ") } } : {}),
        };
        // One Lighthouse run of a page scores anywhere in a range of 15 points or more on this kind of machine
        // (its simulated TBT swings most, decision 015): each page is measured LIGHTHOUSE_RUNS times and its
        // median run is the figure, with every run's score printed beside it.
        const runs = [];
        while (runs.length < LIGHTHOUSE_RUNS)
          runs.push(await lighthouseRun(`${portal.url}${path}`, flags, path));
        const perfOf = (r) => Math.round((r?.lhr.categories.performance.score ?? 0) * 100);
        const result = [...runs].sort((a, b) => perfOf(a) - perfOf(b))[(runs.length - 1) >> 1];
        const perf = perfOf(result);
        const a11y = Math.min(
          ...runs.map((r) => Math.round((r?.lhr.categories.accessibility.score ?? 0) * 100)),
        );
        const figures = (r) =>
          `${perfOf(r)} (LCP ${r?.lhr.audits["largest-contentful-paint"]?.displayValue ?? "?"}, ` +
          `TBT ${r?.lhr.audits["total-blocking-time"]?.displayValue ?? "?"})`;
        report(
          `Lighthouse mobile performance ${path}, median of ${runs.length}`,
          `${figures(result)}; runs: ${runs.map(figures).join(", ")}`,
          "≥ 95",
          perf >= 95,
        );
        // What the score is made of: the analytics frame's layout shifts count in CLS (all frames), and
        // the LCP element says which paint the figure is (decision 015).
        const metrics = result?.lhr.audits.metrics?.details?.items?.[0] ?? {};
        const fcp = result?.lhr.audits["first-contentful-paint"]?.displayValue ?? "?";
        const lcpElement =
          result?.lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node
            ?.nodeLabel ?? "?";
        const cls = (value) => (typeof value === "number" ? value.toFixed(3) : "?");
        console.log(
          `       FCP ${fcp}; LCP element "${lcpElement.slice(0, 60)}"; CLS ${cls(metrics.cumulativeLayoutShift)}` +
            ` (this page alone ${cls(metrics.cumulativeLayoutShiftMainFrame)})`,
        );
        report(
          `Lighthouse mobile accessibility ${path}, lowest of ${runs.length}`,
          String(a11y),
          "100",
          a11y === 100,
        );
      }
    } finally {
      await chrome.kill();
    }
  }

  const missed = results.filter((r) => !r.ok);
  console.log(
    missed.length === 0 ? "All web targets met." : `${missed.length} of ${results.length} targets missed.`,
  );
} finally {
  await browser.close();
  await portal.stop();
}
