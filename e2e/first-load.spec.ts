import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * How the SPA's first load is ordered (decision 015): its Lighthouse performance rests on these, and nothing
 * on screen would show that one of them broke.
 */

test("the SPA's page shows 'Checking authentication...' before any script, and asks for React DOM beside the entry without the entry waiting for it", async ({
  request,
}) => {
  const html = await (await request.get("/admin/client-list")).text();
  expect(html).toMatch(
    /<div id="first-screen">[\s\S]*Checking authentication\.\.\.[\s\S]*<\/div>\s*<div id="root"><\/div>/,
  );

  const preloaded = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
    (m) => m[1],
  );
  expect(preloaded.filter((href) => /\/assets\/react-dom-[\w-]+\.js$/.test(href ?? ""))).toHaveLength(1);

  // What the entry imports (and so waits for) before the route table runs: never React DOM.
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html)?.[1];
  expect(entry).toBeDefined();
  const waitedFor = new Set<string>();
  const visit = async (path: string) => {
    if (waitedFor.has(path)) return;
    waitedFor.add(path);
    const code = await (await request.get(path)).text();
    for (const [, file] of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
      await visit(`/assets/${file}`);
  };
  await visit(entry ?? "");
  expect(waitedFor.size).toBeGreaterThan(1);
  expect([...waitedFor].filter((path) => path.includes("react-dom"))).toEqual([]);
});

test("a client's first load asks for the session once and before the route's modules, then the shell replaces the first screen", async ({
  page,
  login,
}) => {
  await login(accounts.client);
  const requested: string[] = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Open account menu" })).toBeVisible();
  await expect(page.locator('[data-embed-state="loaded"]')).toBeVisible();
  await expect(page.locator("#first-screen")).toHaveCount(0);
  await expect(page.getByText("Checking authentication...")).toHaveCount(0);

  // The guard takes the answer of the request sent as the page started; the shell's queries were prefetched.
  expect(requested.filter((path) => path === "/api/auth/get-session")).toHaveLength(1);
  // The two-step standing comes with the session (issue 24): the shell needs no settings of its own.
  expect(requested.filter((path) => path === "/api/config")).toHaveLength(0);
  // The list and the first frame's URL come in one answer the page started (decision 024).
  expect(requested.filter((path) => path === "/api/me/workbook-start")).toHaveLength(1);
  expect(requested.filter((path) => path === "/api/me/workbooks")).toHaveLength(0);
  expect(requested.filter((path) => path === "/api/sigma/provision-and-embed")).toHaveLength(0);
  const session = requested.indexOf("/api/auth/get-session");
  const start = requested.indexOf("/api/me/workbook-start");
  const entry = requested.findIndex((path) => /^\/assets\/index-[\w-]+\.js$/.test(path));
  const workbookPage = requested.findIndex((path) => /^\/assets\/workbook-page-[\w-]+\.js$/.test(path));
  expect(workbookPage).toBeGreaterThan(-1);
  expect(session).toBeLessThan(workbookPage);
  expect(start).toBeLessThan(workbookPage);
  // Both leave as the page's answer arrives, before its scripts (its `Link: rel=preload`).
  expect(entry).toBeGreaterThan(-1);
  expect(Math.max(session, start)).toBeLessThan(entry);
});

test("the account menu opens on the first press even while its menu is still loading", async ({
  page,
  login,
}) => {
  await login(accounts.client);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/account-menu-dropdown-*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/");
  const button = page.getByRole("button", { name: "Open account menu" });
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await button.click();
  await expect(page.getByRole("menu")).toHaveCount(0);
  release();
  await expect(page.getByRole("menuitem", { name: "Logout" })).toBeVisible();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await expect(button).toBeFocused();
});

declare global {
  interface Window {
    layoutShifts?: { value: number; moved: string }[];
    frameErrors?: string[];
  }
}

/**
 * Runs in every frame from its start: each layout shift, as the nodes that moved and how far, and each error
 * reported to the window (a ResizeObserver loop that ends with undelivered notifications is one).
 */
function recordLayoutShifts() {
  const errors: string[] = [];
  window.frameErrors = errors;
  window.addEventListener("error", (e) => errors.push(e.message));
  const shifts: { value: number; moved: string }[] = [];
  window.layoutShifts = shifts;
  const name = (node: Node | null | undefined) =>
    node instanceof Element ? `${node.tagName.toLowerCase()}.${node.getAttribute("class") ?? ""}` : "?";
  const at = (r: DOMRectReadOnly) =>
    `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      sources: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    })[]) {
      const moved = entry.sources.map((s) => `${name(s.node)} ${at(s.previousRect)} → ${at(s.currentRect)}`);
      shifts.push({ value: entry.value, moved: `at ${Math.round(entry.startTime)} ms: ${moved.join("; ")}` });
    }
  }).observe({ type: "layout-shift", buffered: true });
}

test.describe("on a phone", () => {
  test.use({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1.75,
  });

  test("nothing moves while a client's workbook loads, on the page or inside the frame (Lighthouse counts both), and turning the phone errs nowhere", async ({
    page,
    login,
  }) => {
    await login(accounts.client);
    await page.context().addInitScript(recordLayoutShifts);
    await page.goto("/");
    await expect(page.locator('[data-embed-state="loaded"]')).toBeVisible();
    const frame = page.frames().find((f) => f.url().includes("/workbook/"));
    expect(frame).toBeDefined();
    // Its tables take their form and its charts are drawn for their boxes before they are painted.
    await expect(frame!.locator("table").first()).toBeVisible();
    await expect(frame!.locator(".wb-chart svg").first()).toBeVisible();
    await page.waitForTimeout(1_000);
    // Inside the frame, nothing at all: the skeleton is laid out styled, tables are stacked before they are
    // painted (they moved 0.13 and 0.15 of the frame before). On the page itself only the web font's
    // arrival redraws 'Checking authentication...' (about 0.0001).
    expect(await frame!.evaluate(() => window.layoutShifts)).toEqual([]);
    const shifts = (await page.evaluate(() => window.layoutShifts)) ?? [];
    expect(
      shifts.reduce((sum, s) => sum + s.value, 0),
      shifts.map((s) => s.moved).join("\n"),
    ).toBeLessThan(0.001);

    // Turned sideways, opened on a desktop width, back to the phone: the tables change form, the charts are
    // drawn again, and nothing errs.
    for (const width of [844, 1440, 412]) {
      await page.setViewportSize({ width, height: 823 });
      await page.waitForTimeout(1_500);
    }
    await expect(frame!.locator(".wb-stacked").first()).toBeVisible();
    expect(await frame!.evaluate(() => window.frameErrors)).toEqual([]);
  });
});
