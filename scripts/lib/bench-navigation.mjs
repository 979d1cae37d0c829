// bench:web's navigation measures (decisions 015 and 024): how long a client waits, from the navigation's start,
// for the workbook frame to be requested, for `workbook:loaded` and for `workbook:dataloaded`, with a cold cache
// (a new browser context) and warm (the same page navigating again), unthrottled or at Lighthouse's mobile
// throttling.
/* global window */

/**
 * Lighthouse 12's mobile throttling (its `constants.throttling`): the CPU four times slower, and the network
 * either as its simulation assumes it (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up: `simulated`, the
 * default here) or as its DevTools preset applies it to the browser (562.5 ms, 1.4 Mbit/s, 675 kbit/s:
 * `applied`, which adds the connection set-up Lantern models to every request). Set through the page's own
 * CDP session: `Network.emulateNetworkConditions` and `Emulation.setCPUThrottlingRate`.
 */
export const THROTTLING = {
  none: null,
  simulated: { latency: 150, downKbps: 1638.4, upKbps: 750, cpu: 4 },
  applied: { latency: 562.5, downKbps: 1474.56, upKbps: 675, cpu: 4 },
};

/** Lighthouse's mobile screen (a Moto G Power), for the throttled runs. */
export const MOBILE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};
export const DESKTOP = { viewport: { width: 1440, height: 900 } };

/** Applies `throttling` (one of THROTTLING's values) to a page through its CDP session. */
export async function throttle(context, page, throttling) {
  if (!throttling) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: throttling.latency,
    downloadThroughput: (throttling.downKbps * 1024) / 8,
    uploadThroughput: (throttling.upKbps * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttling.cpu });
}

/**
 * In the page (not its frames): when the workbook frame's document was requested (its Resource Timing entry's
 * start, measured from the navigation's start like everything here), and when the frame posted
 * `workbook:loaded` and `workbook:dataloaded`.
 */
function probe() {
  if (window !== window.top) return;
  const marks = { frameRequest: null, loaded: null, dataloaded: null };
  window.__bench = marks;
  window.addEventListener("message", (event) => {
    const type = event.data?.type;
    if (type === "workbook:loaded" && marks.loaded === null) marks.loaded = performance.now();
    if (type === "workbook:dataloaded" && marks.dataloaded === null) marks.dataloaded = performance.now();
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.initiatorType === "iframe" && marks.frameRequest === null)
        marks.frameRequest = entry.startTime;
  }).observe({ type: "resource", buffered: true });
}

/** A new browser context (a cold cache) with `cookies`, the probe and the screen of `device`. */
export async function probedContext(browser, cookies, device = DESKTOP) {
  const context = await browser.newContext(device);
  await context.addCookies(cookies);
  await context.addInitScript(probe);
  return context;
}

/** One navigation to `url` until `workbook:dataloaded`: its three moments in ms from the navigation's start. */
export async function navigate(page, url) {
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.__bench?.dataloaded != null, undefined, { timeout: 90_000 });
    // The frame's Resource Timing entry is added once the frame has loaded, which may follow the data.
    await page
      .waitForFunction(() => window.__bench.frameRequest !== null, undefined, { timeout: 5_000 })
      .catch(() => undefined);
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
  return page.evaluate(() => ({ ...window.__bench }));
}

/**
 * `runs` pairs of a cold navigation to `url` (new context) and a warm one (the same page again), each its three
 * moments. `throttling`: one of THROTTLING's values (with it, Lighthouse's mobile screen).
 */
export async function navigationRuns(browser, { url, cookies, runs, throttling = null }) {
  const cold = [];
  const warm = [];
  for (let i = 0; i < runs; i++) {
    const context = await probedContext(browser, cookies, throttling ? MOBILE : DESKTOP);
    try {
      const page = await context.newPage();
      await throttle(context, page, throttling);
      cold.push(await navigate(page, url));
      warm.push(await navigate(page, url));
    } finally {
      await context.close();
    }
  }
  return { cold, warm };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The median of one moment over runs (null when a run did not see it: then the median is of those that did). */
export function medianOf(samples, key) {
  const seen = samples.map((s) => s[key]).filter((v) => typeof v === "number");
  return seen.length === 0 ? null : median(seen);
}
