// npm run bench:web — gzipped size of the JavaScript that /login actually loads in Chromium (target ≤ 120 KB).
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "./lib/chromium.mjs";
import { startPortal } from "./lib/serve.mjs";

const portal = await startPortal();
// Stop the portal whatever happens next (a browser that will not start included).
const browser = await chromium.launch(chromiumLaunchOptions).catch(async (error) => {
  await portal.stop();
  throw error;
});
try {
  const page = await browser.newPage();
  const scripts = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script") {
      const body = await response.body();
      scripts.push({
        url: new URL(response.url()).pathname,
        raw: body.length,
        gzip: gzipSync(body, { level: 9 }).length,
      });
    }
  });
  await page.goto(`${portal.url}/login`, { waitUntil: "networkidle" });
  let total = 0;
  let raw = 0;
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) {
    total += s.gzip;
    raw += s.raw;
    console.log(
      `${(s.gzip / 1024).toFixed(1).padStart(7)} KB gz  ${(s.raw / 1024).toFixed(1).padStart(7)} KB  ${s.url}`,
    );
  }
  console.log(
    `JS loaded by /login: ${(total / 1024).toFixed(1)} KB gzipped (${(raw / 1024).toFixed(1)} KB raw) in ${scripts.length} files; target ≤ 120 KB`,
  );
  console.log(total <= 120 * 1024 ? "PASS: within 120 KB" : "OVER TARGET: 120 KB");
} finally {
  await browser.close();
  await portal.stop();
}
