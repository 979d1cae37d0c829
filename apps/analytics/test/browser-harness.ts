import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../../../scripts/lib/chromium.mjs";

/** Debian's Chromium, launched as every browser test launches it. Never downloads a browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}

export interface RecordedEvent {
  type: string;
  at: number;
  [key: string]: unknown;
}

/**
 * A stand-in for the portal: a page on its own origin that frames an embed URL, records the messages the
 * frame posts (checking source and origin like a real host), and can post messages into the frame.
 */
export class HostPage {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<HostPage> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://host");
      const src = url.searchParams.get("src") ?? "about:blank";
      const analyticsOrigin = new URL(src).origin;
      const width = Number(url.searchParams.get("width") ?? "1280");
      const height = Number(url.searchParams.get("height") ?? "900");
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Host</title>
<style>body{margin:0}iframe{border:0;display:block}</style></head><body>
<script>
window.__events = [];
window.__analyticsOrigin = ${JSON.stringify(analyticsOrigin)};
window.addEventListener("message", (e) => {
  const frame = document.getElementById("embed");
  if (e.origin !== window.__analyticsOrigin || e.source !== frame.contentWindow) return;
  window.__events.push(Object.assign({}, e.data, { at: performance.now() }));
});
window.__post = (message) => document.getElementById("embed").contentWindow.postMessage(message, window.__analyticsOrigin);
const frame = document.createElement("iframe");
frame.id = "embed";
frame.title = "Analytics";
frame.width = ${JSON.stringify(String(width))};
frame.height = ${JSON.stringify(String(height))};
document.body.appendChild(frame);
window.__navigationStart = performance.now();
frame.src = ${JSON.stringify(src).replace(/</g, "\\u003c")};
</script>
</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return new HostPage(server, `http://127.0.0.1:${port}`);
  }

  url(embedUrl: string, size: { width?: number; height?: number } = {}): string {
    const q = new URLSearchParams({
      src: embedUrl,
      width: String(size.width ?? 1280),
      height: String(size.height ?? 900),
    });
    return `${this.origin}/?${q}`;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Milliseconds from the frame's navigation to its first `type` event. */
export function sinceNavigation(page: Page, type: string): Promise<number> {
  return page.evaluate((t) => {
    const w = window as unknown as { __events: { type: string; at: number }[]; __navigationStart: number };
    const e = w.__events.find((x) => x.type === t);
    return e ? e.at - w.__navigationStart : Number.NaN;
  }, type);
}

export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { __events: RecordedEvent[] }).__events);
}

/** Waits until the frame has posted an event of `type` (after `after` events of that type). */
export async function waitForEvent(
  page: Page,
  type: string,
  after = 0,
  timeout = 30_000,
): Promise<RecordedEvent> {
  await page.waitForFunction(
    ([t, n]) =>
      (window as unknown as { __events: { type: string }[] }).__events.filter((e) => e.type === t).length >
      (n as number),
    [type, after] as const,
    { timeout },
  );
  const all = await events(page);
  return all.filter((e) => e.type === type)[after] as RecordedEvent;
}
