// bench:web's main-thread measure (decision 024): the longest tasks of the page's main thread during a cold load,
// read from a Chromium trace (every task, not only those over 50 ms that the Long Tasks API reports), each with
// what took most of it: a script's evaluation or a function call (its file), a style or layout pass, a parse.
import { probedContext, throttle } from "./bench-navigation.mjs";

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink.user_timing",
  "loading",
  "toplevel",
  "v8.execute",
];

/** What a piece of work inside a task was, in a few words. */
function describe(event) {
  const data = event.args?.data ?? {};
  const url = data.url || data.stackTrace?.[0]?.url || event.args?.fileName || "";
  const where = url ? ` ${url.replace(/^https?:\/\/[^/]+/, "")}` : "";
  const fn = data.functionName ? ` ${data.functionName}` : "";
  return `${event.name}${fn}${where}`;
}

const WORK = new Set([
  "EvaluateScript",
  "v8.evaluateModule",
  "FunctionCall",
  "v8.compile",
  "v8.compileModule",
  "ParseHTML",
  "ParseAuthorStyleSheet",
  "UpdateLayoutTree",
  "Layout",
  "Paint",
  "PrePaint",
  "Layerize",
  "TimerFire",
  "FireAnimationFrame",
  "EventDispatch",
  "RunMicrotasks",
  "HitTest",
]);

/**
 * The page renderer's main thread (`CrRendererMain` of the process whose navigation started at `url`'s origin)
 * and its tasks from that navigation's start, longest first, in ms, each with its largest piece of work.
 */
export function tasksFromTrace(traceEvents, origin) {
  const start = traceEvents.find(
    (e) =>
      e.name === "navigationStart" &&
      e.args?.data?.isLoadingMainFrame &&
      String(e.args?.data?.documentLoaderURL ?? "").startsWith(origin),
  );
  if (!start) return [];
  const { pid, tid } = start;
  const onThread = traceEvents.filter(
    (e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.ts >= start.ts,
  );
  // The scheduler's own RunTask events nest inside the top-level one: each task counted once.
  const tasks = [];
  for (const task of onThread.filter((e) => e.name === "RunTask").sort((a, b) => a.ts - b.ts)) {
    const last = tasks.at(-1);
    if (!last || task.ts >= last.ts + last.dur) tasks.push(task);
  }
  const work = onThread.filter((e) => WORK.has(e.name));
  return tasks
    .map((task) => {
      const inside = work.filter((w) => w.ts >= task.ts && w.ts + (w.dur ?? 0) <= task.ts + task.dur);
      const largest = inside.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
      return {
        ms: task.dur / 1000,
        at: (task.ts - start.ts) / 1000,
        what: largest ? `${describe(largest)} (${(largest.dur / 1000).toFixed(0)} ms)` : "?",
      };
    })
    .sort((a, b) => b.ms - a.ms);
}

/**
 * One cold load of `url` (a new context with `cookies`, `throttling` applied), traced until `ready(page)`
 * resolves and a second more: the page's main-thread tasks, longest first.
 */
export async function coldLoadTasks(browser, { url, cookies, throttling, device, ready }) {
  const context = await probedContext(browser, cookies, device);
  try {
    const page = await context.newPage();
    await throttle(context, page, throttling);
    await browser.startTracing(page, { categories: CATEGORIES });
    let trace;
    try {
      await page.goto(url);
      await ready(page);
      await page.waitForTimeout(1000);
    } finally {
      trace = await browser.stopTracing();
    }
    const { traceEvents } = JSON.parse(trace.toString("utf8"));
    return tasksFromTrace(traceEvents, new URL(url).origin);
  } finally {
    await context.close();
  }
}
