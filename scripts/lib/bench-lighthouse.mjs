// bench:web's Lighthouse runs: mobile (its default form factor and simulated throttling), performance and
// accessibility, the median of several runs a page (decision 015).
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumLaunchOptions } from "./chromium.mjs";
import { cookieHeader } from "./bench-sign-in.mjs";

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

/** A Chromium for Lighthouse; `use(chrome)` runs with it and it is closed afterwards. */
export async function withLighthouseChrome(use) {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumLaunchOptions.executablePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
  });
  try {
    return await use(chrome);
  } finally {
    await chrome.kill();
  }
}

export const perfOf = (r) => Math.round((r?.lhr.categories.performance.score ?? 0) * 100);

/** A run's score with the two metrics that move it most here. */
export const figuresOf = (r) =>
  `${perfOf(r)} (LCP ${r?.lhr.audits["largest-contentful-paint"]?.displayValue ?? "?"}, ` +
  `TBT ${r?.lhr.audits["total-blocking-time"]?.displayValue ?? "?"})`;

/**
 * `runs` Lighthouse runs of `url` (signed in with `cookies`, or not): the median run by performance, every run,
 * and the lowest accessibility score. One run of the same build scores anywhere in a range of 15 points or
 * more on this kind of machine (its simulated TBT swings most), hence the median.
 */
export async function lighthousePage(chrome, { url, cookies, runs, label }) {
  const flags = {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility"],
    ...(cookies ? { extraHeaders: { Cookie: cookieHeader(cookies) } } : {}),
  };
  const all = [];
  while (all.length < runs) all.push(await lighthouseRun(url, flags, label));
  const median = [...all].sort((a, b) => perfOf(a) - perfOf(b))[(all.length - 1) >> 1];
  const a11y = Math.min(...all.map((r) => Math.round((r?.lhr.categories.accessibility.score ?? 0) * 100)));
  return { median, all, perf: perfOf(median), a11y };
}

/** What the median run's score is made of: FCP, the LCP element, CLS with and without the frame. */
export function scoreParts(result) {
  const metrics = result?.lhr.audits.metrics?.details?.items?.[0] ?? {};
  const fcp = result?.lhr.audits["first-contentful-paint"]?.displayValue ?? "?";
  const lcpElement =
    result?.lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node
      ?.nodeLabel ?? "?";
  const cls = (value) => (typeof value === "number" ? value.toFixed(3) : "?");
  return (
    `FCP ${fcp}; LCP element "${lcpElement.slice(0, 60)}"; CLS ${cls(metrics.cumulativeLayoutShift)}` +
    ` (this page alone ${cls(metrics.cumulativeLayoutShiftMainFrame)})`
  );
}
