import { E2E_ANALYTICS_PORT } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";
import {
  ANALYTICS_ORIGIN,
  consumedEmbedUrl,
  demoWorkbooks,
  expectWorkbookLoaded,
  frameToken,
  mintEmbedUrl,
  portfolio,
  scriptEmbedAnswers,
  sidebarWorkbooks,
  taxCenter,
  waitForAnalyticsServer,
  workbookArea,
  workbookFrame,
} from "./support/workbooks-helpers.ts";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await waitForAnalyticsServer();
});

test.describe("client", () => {
  test.beforeEach(async ({ login }) => {
    await login(accounts.client);
  });

  test("an element shown full screen in the frame covers the window, and comes back", async ({ page }) => {
    await page.goto("/");
    await expectWorkbookLoaded(page, portfolio.label);
    const frame = workbookFrame(page, portfolio.label);
    const inFrame = frame.contentFrame();
    await inFrame.getByRole("button", { name: "Full screen: Growth of $100 vs benchmark" }).click();
    // The frame reported workbook:fullscreen:onchange {fullScreen: true}: it now fills the viewport.
    await expect(frame).toHaveAttribute("data-fullscreen", "true");
    const viewport = page.viewportSize()!;
    await expect
      .poll(async () => {
        const box = await frame.boundingBox();
        return box && [Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)];
      })
      .toEqual([0, 0, viewport.width, viewport.height]);
    await expect(inFrame.locator("section.wb-fullscreen")).toHaveAttribute("data-element-id", "growth");
    await inFrame.getByRole("button", { name: "Exit full screen: Growth of $100 vs benchmark" }).click();
    await expect(frame).not.toHaveAttribute("data-fullscreen", "true");
    await expect.poll(async () => (await frame.boundingBox())?.y ?? 0).toBeGreaterThan(0);
  });

  test("the sidebar lists the client's workbooks and / opens the first one with their own data", async ({
    page,
  }) => {
    await page.goto("/");
    const links = sidebarWorkbooks(page);
    await expect(links).toHaveCount(3);
    for (const [index, workbook] of demoWorkbooks.entries()) {
      await expect(links.nth(index)).toHaveAccessibleName(workbook.label);
      await expect(links.nth(index)).toHaveAttribute("href", `/workbooks/${workbook.name}`);
    }

    await expectWorkbookLoaded(page, portfolio.label);
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(/Home.*Portfolio Overview/);
    await expect(page).toHaveTitle(`${portfolio.label} · Meridian Client Portal`);
    await expect(links.nth(0)).toHaveAttribute("aria-current", "page");
    await expect(links.nth(1)).not.toHaveAttribute("aria-current", "page");

    const frame = workbookFrame(page, portfolio.label);
    await expect(frame).toHaveAttribute("allow", "camera; microphone; clipboard-write; fullscreen");
    // `allow` grants full screen; the legacy attribute beside it only drew a console warning.
    await expect(frame).not.toHaveAttribute("allowfullscreen");
    const src = new URL((await frame.getAttribute("src"))!);
    expect(src.origin).toBe(ANALYTICS_ORIGIN);
    expect(src.pathname).toBe(`/local/workbook/${portfolio.name}`);
    expect(src.searchParams.get(":responsive_height")).toBe("true");

    // The frame shows Olivia's accounts (CL-1001-..), never Marcus's (CL-1002).
    const inFrame = frame.contentFrame();
    const accountOptions = inFrame.locator('select[data-control-id="Account"] option');
    await expect(accountOptions.first()).toBeAttached();
    const optionTexts = await accountOptions.allTextContents();
    const accountsShown = optionTexts.filter((text) => text !== "All accounts");
    expect(accountsShown.length).toBeGreaterThan(0);
    for (const text of accountsShown) expect(text).toContain("(CL-1001-");
    await expect(inFrame.locator("body")).not.toContainText("CL-1002");
    // A single client gets no client picker.
    await expect(inFrame.locator('select[data-control-id="Client"]')).toHaveCount(0);
  });

  test("the frame follows the workbook's height, so the page has one scroll bar", async ({ page }) => {
    await page.goto("/");
    await expectWorkbookLoaded(page, portfolio.label);
    const frame = workbookFrame(page, portfolio.label);
    const viewportBelowHeader = 800 - 90;
    await expect
      .poll(async () => (await frame.boundingBox())?.height ?? 0, { message: "frame height" })
      .toBeGreaterThan(viewportBelowHeader);
    const inner = await frame.evaluate((element: HTMLIFrameElement) => element.clientHeight);
    const content = await frame
      .contentFrame()
      .locator("html")
      .evaluate((html) => html.scrollHeight);
    expect(content).toBeLessThanOrEqual(inner + 1);
  });

  test("another workbook from the sidebar opens with a new one-time URL", async ({ page }) => {
    await page.goto("/");
    await expectWorkbookLoaded(page, portfolio.label);
    const firstToken = await frameToken(page, portfolio.label);

    await sidebarWorkbooks(page).nth(1).click();
    await expect(page).toHaveURL(`/workbooks/${taxCenter.name}`);
    await expectWorkbookLoaded(page, taxCenter.label);
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(/Home.*Tax Center/);
    await expect(sidebarWorkbooks(page).nth(1)).toHaveAttribute("aria-current", "page");
    await expect(sidebarWorkbooks(page).nth(0)).not.toHaveAttribute("aria-current", "page");
    const taxToken = await frameToken(page, taxCenter.label);

    await sidebarWorkbooks(page).nth(0).click();
    await expect(page).toHaveURL(`/workbooks/${portfolio.name}`);
    await expectWorkbookLoaded(page, portfolio.label);
    const againToken = await frameToken(page, portfolio.label);
    expect(new Set([firstToken, taxToken, againToken]).size).toBe(3);
  });

  test("an id that is not one of the client's workbooks falls back to the first", async ({ page }) => {
    await page.goto("/workbooks/not-a-real-one");
    await expectWorkbookLoaded(page, portfolio.label);
    await expect(page).toHaveURL("/workbooks/not-a-real-one");
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(/Home.*Portfolio Overview/);
    await expect(sidebarWorkbooks(page).nth(0)).toHaveAttribute("aria-current", "page");
  });

  test("the collapsed sidebar keeps one link per workbook, shown by its initials", async ({ page }) => {
    await page.goto(`/workbooks/${taxCenter.name}`);
    await expectWorkbookLoaded(page, taxCenter.label);
    await page.getByRole("button", { name: "Collapse sidebar" }).click();
    await expect(page.getByRole("complementary", { name: "Sidebar" })).toHaveCSS("width", "64px");
    const links = sidebarWorkbooks(page);
    await expect(links).toHaveCount(3);
    // Only the initials show; the label stays the link's name (and its tooltip).
    await expect(links.nth(0).getByText("PO", { exact: true })).toBeVisible();
    expect((await links.nth(0).boundingBox())?.width ?? 99).toBeLessThanOrEqual(64);
    await expect(links.nth(2)).toHaveAttribute("title", "Income and Fees");
    await expect(links.nth(1)).toHaveAccessibleName("Tax Center");
    await expect(links.nth(1)).toHaveAttribute("aria-current", "page");
    // Collapsing the sidebar does not reload the workbook.
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "loaded");
  });

  test("messages from anything but the workbook frame are ignored", async ({ page }) => {
    await page.goto("/");
    await expectWorkbookLoaded(page, portfolio.label);
    const token = await frameToken(page, portfolio.label);

    // Another frame of the analytics origin (right origin, wrong window): an embed URL without a token
    // renders the analytics error page, which posts a real `workbook:error` EINVAL to the portal.
    const received = await page.evaluate(
      (origin) =>
        new Promise<unknown>((resolve) => {
          const other = document.createElement("iframe");
          other.title = "Unrelated frame";
          window.addEventListener("message", function seen(event) {
            if (event.source !== other.contentWindow) return;
            window.removeEventListener("message", seen);
            resolve({ origin: event.origin, data: event.data as unknown });
          });
          other.src = `${origin}/local/workbook/Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ`;
          document.body.append(other);
        }),
      ANALYTICS_ORIGIN,
    );
    expect(received).toMatchObject({
      origin: ANALYTICS_ORIGIN,
      data: { type: "workbook:error", code: "EINVAL" },
    });

    // The portal's own window (wrong window, wrong origin) posts fake events; a marker posted after them
    // arrives after the view's listener has seen them.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const marker = `marker-${Math.random()}`;
          window.addEventListener("message", function done(event) {
            if (event.data !== marker) return;
            window.removeEventListener("message", done);
            resolve();
          });
          window.postMessage({ type: "workbook:error", code: "EACCES", message: "forged" }, "*");
          window.postMessage({ type: "workbook:pageheight:onchange", pageHeight: 9000 }, "*");
          window.postMessage(marker, "*");
        }),
    );

    // Neither an EINVAL re-mint, nor an error, nor a 9000px frame.
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "loaded");
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect(await frameToken(page, portfolio.label)).toBe(token);
    expect((await workbookFrame(page, portfolio.label).boundingBox())?.height ?? 0).toBeLessThan(9000);
  });
});

test("the demo employee sees the workbooks of their clients, with both clients to choose from", async ({
  page,
  login,
}) => {
  await login(accounts.employee);
  await page.goto("/");
  const links = sidebarWorkbooks(page);
  await expect(links).toHaveCount(3);
  for (const [index, workbook] of demoWorkbooks.entries()) {
    await expect(links.nth(index)).toHaveAccessibleName(workbook.label);
  }
  await expectWorkbookLoaded(page, portfolio.label);
  const clientOptions = workbookFrame(page, portfolio.label)
    .contentFrame()
    .locator('select[data-control-id="Client"] option');
  await expect(clientOptions).toHaveText([
    "All clients",
    "Olivia Bennett (CL-1001)",
    "Marcus Chen (CL-1002)",
  ]);
});

test("a person without workbooks sees the empty state in the sidebar and the page", async ({
  page,
  login,
  createAccount,
}) => {
  await login(await createAccount());
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "No workbooks assigned yet." })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Workbooks" })).toContainText(
    "No workbooks assigned yet.",
  );
  await expect(sidebarWorkbooks(page)).toHaveCount(0);
  await expect(page.locator("iframe")).toHaveCount(0);
});

test.describe("failures", () => {
  test.beforeEach(async ({ login }) => {
    await login(accounts.client);
  });

  test("a failing embed call shows 'Backend error {status}: {body}' and Try again recovers", async ({
    page,
  }) => {
    const script = await scriptEmbedAnswers(page, [
      { status: 500, body: JSON.stringify({ error: "Something went wrong on our side. Please try again." }) },
    ]);
    await page.goto("/");
    await expect(page.getByRole("alert")).toContainText(
      "Backend error 500: Something went wrong on our side. Please try again.",
    );
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "error");
    // The shell is intact around the failure.
    await expect(sidebarWorkbooks(page)).toHaveCount(3);
    await page.getByRole("button", { name: "Try again" }).click();
    await expectWorkbookLoaded(page, portfolio.label);
    expect(script.calls()).toBe(2);
  });

  test("an answer without an embed URL shows 'No embed data available.'", async ({ page }) => {
    await scriptEmbedAnswers(page, [{ embedUrl: "" }]);
    await page.goto("/");
    await expect(page.getByRole("alert")).toContainText("No embed data available.");
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "empty");
    await expect(page.locator("iframe")).toHaveCount(0);
  });

  test("a used link (EINVAL) is replaced by a fresh one once, without bothering the person", async ({
    page,
  }) => {
    const used = await consumedEmbedUrl(page, portfolio.name);
    const script = await scriptEmbedAnswers(page, [{ embedUrl: used }]);
    await page.goto("/");
    await expectWorkbookLoaded(page, portfolio.label);
    expect(script.calls()).toBe(2);
    expect(await frameToken(page, portfolio.label)).not.toBe(new URL(used).searchParams.get(":jwt"));
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("a second EINVAL shows a clear message; Try again mints a new link", async ({ page }) => {
    const script = await scriptEmbedAnswers(page, [
      { embedUrl: await consumedEmbedUrl(page, portfolio.name) },
      { embedUrl: await consumedEmbedUrl(page, portfolio.name) },
    ]);
    await page.goto("/");
    await expect(page.getByRole("alert")).toContainText("This workbook link is no longer valid.");
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "failed");
    expect(script.calls()).toBe(2);
    await page.getByRole("button", { name: "Try again" }).click();
    await expectWorkbookLoaded(page, portfolio.label);
    expect(script.calls()).toBe(3);
  });

  test("any other frame error (ENOENT) is shown at once, without a silent retry", async ({ page }) => {
    const minted = new URL(await mintEmbedUrl(page, portfolio.name));
    minted.pathname = "/local/workbook/Retired-Report-aaaaaaaaaaaaaaaaaaaaaa";
    const script = await scriptEmbedAnswers(page, [{ embedUrl: minted.toString() }]);
    await page.goto("/");
    await expect(page.getByRole("alert")).toContainText("This workbook is not available.");
    await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "failed");
    expect(script.calls()).toBe(1);
    await page.getByRole("button", { name: "Try again" }).click();
    await expectWorkbookLoaded(page, portfolio.label);
  });
});

test("with the analytics service unreachable the view says so within 10 seconds, and Try again recovers", async ({
  page,
  login,
}) => {
  await login(accounts.client);
  // The frame's first request finds nothing listening; later ones reach the service.
  let refused = 0;
  await page.route(
    (url) => url.port === String(E2E_ANALYTICS_PORT) && url.pathname.includes("/workbook/"),
    async (route) => {
      if (refused === 0) {
        refused += 1;
        await route.abort("connectionrefused");
      } else {
        await route.continue();
      }
    },
  );
  const started = Date.now();
  await page.goto("/");
  await expect(page.getByRole("alert")).toContainText("The analytics service did not open this workbook.", {
    timeout: 10_000,
  });
  expect(Date.now() - started).toBeLessThan(10_000);
  await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "failed");
  await page.getByRole("button", { name: "Try again" }).click();
  await expectWorkbookLoaded(page, portfolio.label);
  expect(refused).toBe(1);
});

test("with the analytics service silent (it never answers) the view says so within 10 seconds, and Try again recovers", async ({
  page,
  login,
}) => {
  await login(accounts.client);
  // The frame's first request is never answered; later ones reach the service.
  let held = 0;
  await page.route(
    (url) => url.port === String(E2E_ANALYTICS_PORT) && url.pathname.includes("/workbook/"),
    async (route) => {
      if (held === 0) {
        held += 1;
        return; // neither answered nor aborted: the frame waits
      }
      await route.continue();
    },
  );
  await page.goto("/");
  // From the moment the frame opens (minting the URL is the portal API's part, tested elsewhere).
  await page.locator("iframe").waitFor({ state: "attached" });
  const started = Date.now();
  await expect(page.getByRole("alert")).toContainText("taking too long", { timeout: 10_000 });
  expect(Date.now() - started).toBeLessThan(10_000);
  await expect(workbookArea(page)).toHaveAttribute("data-embed-state", "failed");
  await page.getByRole("button", { name: "Try again" }).click();
  await expectWorkbookLoaded(page, portfolio.label);
  expect(held).toBe(1);
});
