import path from "node:path";
import { fileURLToPath } from "node:url";

import { DEFAULT_BRANDING } from "@portal/contracts";

import { BASE_URL } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

/**
 * README screenshots of the firm settings (docs/screenshots/admin-settings*.png) at desktop and phone width,
 * with a firm's own name, colour and logo; the demo firm is put back afterwards.
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/admin-branding.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="9" fill="#f2b705"/><path d="M11 29V11l18 18V11" stroke="#1f4e8c" stroke-width="4.5" stroke-linecap="round" stroke-linejoin="round" fill="none"/></svg>`;

test("the firm settings", async ({ page, login }) => {
  await login(accounts.admin);
  const headers = { Origin: BASE_URL };
  const saved = await page.request.put("/api/admin/settings", {
    data: {
      firmName: "Northwind Advisors",
      primaryColour: "#1f4e8c",
      supportEmail: "help@northwind.example",
    },
    headers,
  });
  expect(saved.status()).toBe(200);
  const logo = await page.request.put("/api/admin/settings/logo", {
    data: Buffer.from(LOGO),
    headers: { ...headers, "Content-Type": "image/svg+xml" },
  });
  expect(logo.status()).toBe(200);
  try {
    for (const [name, width, height] of [
      ["admin-settings", 1440, 900],
      ["admin-settings-phone", 390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto("/admin/settings");
      await expect(page.getByRole("heading", { level: 1, name: "Firm settings" })).toBeVisible();
      await expect(page.getByTestId("contrast-preview")).toContainText("meets WCAG AA");
      await expect
        .poll(() =>
          page.getByTestId("firm-logo").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        )
        .toBeGreaterThan(0);
      await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
    }
  } finally {
    await page.request.put("/api/admin/settings", {
      data: { ...DEFAULT_BRANDING, logoUrl: undefined },
      headers,
    });
    await page.request.delete("/api/admin/settings/logo", { headers });
  }
});
