/**
 * The built-in server driven by Sigma's official `@sigmacomputing/embed-sdk`: its own listener and mutation
 * functions, loaded as published, in Chromium. A host-resolver rule gives the server a
 * `*.sigmacomputing.io` name on 127.0.0.1, because the SDK's listeners accept only Sigma's hosts
 * (decision 011); its mutations post to app.sigmacomputing.com unless told otherwise.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import type * as Sdk from "@sigmacomputing/embed-sdk";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chromiumLaunchOptions } from "../../../scripts/lib/chromium.mjs";
import { PORTFOLIO, employeeUser, mint, startTestServer, type TestServer } from "./helpers.ts";

const SIGMA_HOST = "bi.sigmacomputing.io";

/** The listeners the host registers, each under its own name in the record of what it heard. */
const LISTENERS = [
  "workbookLoadedListener",
  "workbookDataLoadedListener",
  "workbookErrorListener",
  "workbookPageHeightListener",
  "workbookVariableChangeListener",
  "workbookCurrentVariablesListener",
  "workbookFullScreenListener",
  "urlOnChangeListener",
  "workbookChartErrorListener",
  "workbookSelectedNodeListener",
] as const satisfies readonly (keyof typeof Sdk)[];
type TListener = (typeof LISTENERS)[number];
type Heard = { listener: TListener; type: string; [key: string]: unknown };

type HostWindow = Window & {
  __sdk: typeof Sdk;
  __heard: Heard[];
  __raw: { type?: string }[];
  __frame: () => HTMLIFrameElement;
};

/** A host page that uses nothing but the SDK to talk to the frame. */
async function startSdkHost(): Promise<{ origin: string; server: Server }> {
  const sdkEntry = createRequire(import.meta.url).resolve("@sigmacomputing/embed-sdk");
  const sdkModule = await readFile(path.join(path.dirname(sdkEntry), "index.mjs"), "utf8");
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://host");
    if (url.pathname === "/embed-sdk.mjs") {
      res.setHeader("content-type", "text/javascript; charset=utf-8");
      res.end(sdkModule);
      return;
    }
    const src = url.searchParams.get("src") ?? "about:blank";
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Host</title>
<style>body{margin:0}iframe{border:0;display:block;width:1280px;height:900px}</style></head><body>
<iframe id="embed" title="Analytics"></iframe>
<script type="module">
import * as sdk from "/embed-sdk.mjs";
const frame = document.getElementById("embed");
const src = ${JSON.stringify(src).replace(/</g, "\\u003c")};
window.__sdk = sdk;
window.__frame = () => frame;
window.__heard = [];
window.__raw = [];
const listeners = ${JSON.stringify(LISTENERS)};
window.addEventListener("message", (event) => {
  if (event.source === frame.contentWindow) window.__raw.push(event.data);
  for (const name of listeners) {
    sdk[name](event, frame, (data) => window.__heard.push(Object.assign({ listener: name }, data)));
  }
});
// The SDK's mutations post to app.sigmacomputing.com; this frame is the built-in server.
sdk.DO_NOT_USE_IN_PRODUCTION_overrideMutationUrl(new URL(src).origin);
frame.src = src;
</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let t: TestServer;
let host: { origin: string; server: Server };
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];

beforeAll(async () => {
  host = await startSdkHost();
  t = await startTestServer({ allowedParentOrigins: [host.origin] });
  browser = await chromium.launch({
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, `--host-resolver-rules=MAP *.sigmacomputing.io 127.0.0.1`],
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await new Promise((resolve) => host?.server.close(resolve));
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1300, height: 950 } });
  page = await context.newPage();
  problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
});
afterEach(async () => {
  await context?.close();
});

/** An embed URL of the built-in server, under `host` instead of 127.0.0.1. */
async function embedUrl(hostname: string): Promise<string> {
  const { url } = await mint(t.server, PORTFOLIO!.workbookName, employeeUser(), {
    ui: { responsive_height: true },
  });
  const u = new URL(url);
  u.hostname = hostname;
  return u.toString();
}

const heard = (p: Page) => p.evaluate(() => (window as unknown as HostWindow).__heard);

/** Waits for the `n`-th (0-based) event a listener heard, and returns it. */
async function waitHeard(p: Page, listener: TListener, n = 0): Promise<Heard> {
  await p.waitForFunction(
    ([l, i]) => (window as unknown as HostWindow).__heard.filter((h) => h.listener === l).length > i,
    [listener, n] as const,
    { timeout: 30_000 },
  );
  return (await heard(p)).filter((h) => h.listener === listener)[n] as Heard;
}

/** The SDK's mutation functions that take the frame first. */
type TMutation =
  | "workbookVariablesUpdate"
  | "workbookVariablesList"
  | "workbookFullscreenUpdate"
  | "workbookSelectedNodeIdUpdate";

/** Calls one of the SDK's mutation functions in the host page, on the frame. */
function mutate<M extends TMutation>(
  p: Page,
  name: M,
  ...args: Parameters<(typeof Sdk)[M]> extends [HTMLIFrameElement, ...infer R] ? R : never
): Promise<void> {
  return p.evaluate(
    ([n, a]) => {
      const w = window as unknown as HostWindow;
      (w.__sdk[n] as (iframe: HTMLIFrameElement, ...rest: unknown[]) => void)(w.__frame(), ...a);
    },
    [name, args as unknown[]] as const,
  );
}

const count = async (p: Page, listener: TListener) =>
  (await heard(p)).filter((h) => h.listener === listener).length;

describe("the official embed SDK against the built-in server", () => {
  it("hears every event through the SDK's listeners and is driven by the SDK's mutations", async () => {
    const src = await embedUrl(SIGMA_HOST);
    await page.goto(`${host.origin}/?${new URLSearchParams({ src })}`);

    const loaded = await waitHeard(page, "workbookLoadedListener");
    expect(loaded).toMatchObject({
      type: "workbook:loaded",
      workbook: { variables: { Client: "all" } },
    });
    await waitHeard(page, "workbookDataLoadedListener");
    expect((await waitHeard(page, "workbookPageHeightListener")).pageHeight).toBeGreaterThan(800);
    const url = await waitHeard(page, "urlOnChangeListener");
    expect(url.type).toBe("url:onchange");
    // "The embed pathname without search or query parameters."
    expect(url.url).toBe(`/local/workbook/${encodeURIComponent(PORTFOLIO!.workbookName)}`);

    const frame = page.frameLocator("#embed");
    // workbookVariablesUpdate → the control changes, the frame answers workbook:variables:onchange in
    // the SDK's shape ({workbook: {variables}}) and loads the data again.
    const dataBefore = await count(page, "workbookDataLoadedListener");
    await mutate(page, "workbookVariablesUpdate", { Period: "min:2026-10-01,max:2026-10-31" });
    const change = await waitHeard(page, "workbookVariableChangeListener");
    expect(change).toMatchObject({
      type: "workbook:variables:onchange",
      workbook: { variables: { Period: "min:2026-10-01,max:2026-10-31" } },
    });
    expect(change).not.toHaveProperty("variables");
    await waitHeard(page, "workbookDataLoadedListener", dataBefore);
    await expect.poll(() => frame.locator("input[type=date]").first().inputValue()).toBe("2026-10-01");

    // workbookVariablesList → workbook:variables:current.
    await mutate(page, "workbookVariablesList");
    expect(await waitHeard(page, "workbookCurrentVariablesListener")).toMatchObject({
      type: "workbook:variables:current",
      variables: { Client: "all", Period: "min:2026-10-01,max:2026-10-31" },
    });

    // workbookFullscreenUpdate(nodeId) toggles: that element over the whole frame, then back.
    await mutate(page, "workbookFullscreenUpdate", "growth");
    expect(await waitHeard(page, "workbookFullScreenListener")).toMatchObject({
      type: "workbook:fullscreen:onchange",
      fullScreen: true,
    });
    await expect
      .poll(() => frame.locator("section.wb-fullscreen").getAttribute("data-element-id"))
      .toBe("growth");
    expect(await frame.locator("section[data-element-id=holdings]").isVisible()).toBe(false);
    const box = await frame.locator("section[data-element-id=growth]").boundingBox();
    expect(box?.width).toBeGreaterThan(1200);
    await mutate(page, "workbookFullscreenUpdate", "growth");
    expect(await waitHeard(page, "workbookFullScreenListener", 1)).toMatchObject({ fullScreen: false });
    await expect.poll(() => frame.locator("section.wb-fullscreen").count()).toBe(0);
    expect(await frame.locator("section[data-element-id=holdings]").isVisible()).toBe(true);

    // The frame's own full-screen button posts the same event.
    await frame.getByRole("button", { name: "Full screen: Holdings" }).click();
    expect(await waitHeard(page, "workbookFullScreenListener", 2)).toMatchObject({ fullScreen: true });
    await frame.getByRole("button", { name: "Exit full screen: Holdings" }).click();
    expect(await waitHeard(page, "workbookFullScreenListener", 3)).toMatchObject({ fullScreen: false });

    // workbookSelectedNodeIdUpdate → the element is selected (focused) and the frame confirms it.
    const selectedBefore = await count(page, "workbookSelectedNodeListener");
    await mutate(page, "workbookSelectedNodeIdUpdate", "allocation-vs-target", "element");
    expect(await waitHeard(page, "workbookSelectedNodeListener", selectedBefore)).toMatchObject({
      type: "workbook:selectednodeid:onchange",
      selectedNodeId: "allocation-vs-target",
      nodeType: "element",
    });
    await expect
      .poll(() =>
        frame.locator("section[data-element-id=allocation-vs-target]").getAttribute("data-selected"),
      )
      .toBe("true");
    // An element that does not exist is ignored: no confirmation follows.
    await mutate(page, "workbookSelectedNodeIdUpdate", "no-such-element", "element");
    await mutate(page, "workbookSelectedNodeIdUpdate", "overview", "page");
    expect(await waitHeard(page, "workbookSelectedNodeListener", selectedBefore + 1)).toMatchObject({
      selectedNodeId: "overview",
      nodeType: "page",
    });

    // An element whose query fails → workbook:chart:error for that element; the workbook stays up.
    await t.db.query("alter table demo.target_allocations rename to target_allocations_gone");
    try {
      await mutate(page, "workbookVariablesUpdate", { Period: "ytd" });
      const chartError = await waitHeard(page, "workbookChartErrorListener");
      expect(chartError).toMatchObject({
        type: "workbook:chart:error",
        nodeId: "allocation-vs-target",
        message: "This element could not be loaded.",
        code: "UNKNOWN",
      });
      // Only that element failed: the others show their data.
      await expect
        .poll(() => frame.locator("section[data-element-id=allocation-vs-target] .wb-element-error").count())
        .toBe(1);
      expect(await frame.locator("section[data-element-id=holdings] tbody tr").count()).toBeGreaterThan(3);
    } finally {
      await t.db.query("alter table demo.target_allocations_gone rename to target_allocations");
    }
    expect(await count(page, "workbookErrorListener")).toBe(0);
    expect(problems).toEqual([]);
  });

  it("the SDK's listeners hear nothing from the built-in server under its own 127.0.0.1 origin", async () => {
    const src = await embedUrl("127.0.0.1");
    await page.goto(`${host.origin}/?${new URLSearchParams({ src })}`);
    // The frame does post (the raw messages arrive) ...
    await page.waitForFunction(
      () => (window as unknown as HostWindow).__raw.some((m) => m.type === "workbook:dataloaded"),
      undefined,
      { timeout: 30_000 },
    );
    // ... but the SDK's origin check (sigmacomputing.com/.io only) drops every one of them.
    expect(await heard(page)).toEqual([]);
  });
});
