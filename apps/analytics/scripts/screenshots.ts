/**
 * npm run screenshots -w apps/analytics — full-page screenshots of each demo workbook as client CL-1001 sees it
 * (the Tax Center as their advisor), at 390, 768 and 1440 px in the light theme and at 1440 px in the dark one,
 * into docs/screenshots/analytics-<workbook>-<width>[-dark].png. `test/layout.test.ts` checks the same pages
 * for overlapping or clipped labels and inner scrolling.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_CLIENTS, DEMO_EMPLOYEE, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { mintEmbedUrl, parseWorkbookName } from "@portal/sigma";
import { buildAnalyticsFrontEnd } from "../src/frontend.ts";
import { launchChromium } from "../test/browser-harness.ts";
import { startTestServer, EMBED_CLIENT } from "../test/helpers.ts";

const OUT = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));
const client = DEMO_CLIENTS[0];

await buildAnalyticsFrontEnd({ quiet: true });
const t = await startTestServer();
const browser = await launchChromium();
try {
  const shots = [
    { width: 390, theme: "Light" },
    { width: 768, theme: "Light" },
    { width: 1440, theme: "Light" },
    { width: 1440, theme: "Dark" },
  ] as const;
  for (const wb of DEMO_WORKBOOKS) {
    for (const { width, theme } of shots) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      // The Tax Center is shown as the employee sees it (with the client selector), the others as the client.
      const employee = wb.workbookName.startsWith("Tax-Center");
      const { url } = await mintEmbedUrl({
        embedBaseUrl: t.server.embedBaseUrl,
        workbookName: wb.workbookName,
        clientId: EMBED_CLIENT.clientId,
        secret: EMBED_CLIENT.secret,
        ui: { theme },
        user: employee
          ? {
              email: DEMO_EMPLOYEE.email,
              firstName: DEMO_EMPLOYEE.firstName,
              lastName: DEMO_EMPLOYEE.lastName,
              accountType: DEMO_EMPLOYEE.privilege,
              teams: DEMO_WORKBOOKS.map((w) => w.teamName),
              userAttributes: { client_ids: DEMO_EMPLOYEE.clientIds.join(",") },
            }
          : {
              email: client.email,
              firstName: client.firstName,
              lastName: client.lastName,
              accountType: client.privilege,
              teams: DEMO_WORKBOOKS.map((w) => w.teamName),
              userAttributes: { client_id: client.clientId },
            },
      });
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => performance.getEntriesByName("wb:workbook:dataloaded").length > 0);
      const slug = (parseWorkbookName(wb.workbookName)?.slug ?? wb.workbookName).toLowerCase();
      // The charts' text is set in Inter: wait for it, and until the labels stop moving.
      // (A string: tsx would wrap a function's inner helpers in a helper the page does not have.)
      await page.evaluate("document.fonts.ready");
      await page.waitForFunction(`new Promise((resolve) => {
        const snap = () => Array.from(document.querySelectorAll(".wb-chart svg text"))
          .map((e) => JSON.stringify(e.getBoundingClientRect())).join();
        const before = snap();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(before === snap())));
      })`);
      const file = path.join(OUT, `analytics-${slug}-${width}${theme === "Dark" ? "-dark" : ""}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await t.stop();
}
