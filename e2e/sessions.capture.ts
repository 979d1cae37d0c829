import path from "node:path";
import { fileURLToPath } from "node:url";

import { BASE_URL } from "./support/env.ts";
import { expect, postAuth, test } from "./support/fixtures.ts";

/**
 * README screenshots of the profile's Sessions section (docs/screenshots/profile-sessions*.png) at desktop and
 * phone width: this browser and two others of the same person.
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/sessions.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

const OTHERS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
];

test("the profile's sessions", async ({ page, login, createAccount, browser }) => {
  const account = await createAccount();
  await login(account);
  // Only this browser and the two below: the session confirming the address made is signed out first.
  const cleared = await page.request.post("/api/me/sessions/revoke-others", {
    headers: { Origin: BASE_URL },
  });
  expect(cleared.status()).toBe(200);
  for (const userAgent of OTHERS) {
    const context = await browser.newContext({ userAgent });
    expect((await postAuth(context.request, "/sign-in/email", account)).status()).toBe(200);
  }
  for (const [name, width, height] of [
    ["profile-sessions", 1440, 900],
    ["profile-sessions-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/profile");
    const section = page.getByRole("region", { name: "Sessions" });
    await expect(section.getByRole("listitem")).toHaveCount(3);
    await section.screenshot({ path: path.join(outDir, `${name}.png`) });
  }
});
