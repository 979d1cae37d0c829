import { expect, test } from "./support/fixtures.ts";

test("the sign-in page is set in the self-hosted Inter, served by the portal itself", async ({
  page,
  baseURL,
}) => {
  const fonts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "font") fonts.push(r.url());
  });
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome Back" })).toBeVisible();
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    const families: string[] = [];
    document.fonts.forEach((f) => {
      if (f.status === "loaded") families.push(f.family);
    });
    return families;
  });
  expect(loaded).toContain("Inter Variable");
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Inter Variable"/);
  expect(fonts.length).toBeGreaterThan(0);
  for (const url of fonts) expect(new URL(url).origin).toBe(new URL(baseURL ?? "").origin);
  // Built assets named after their content: cached for good.
  const font = await page.request.get(fonts[0]!);
  expect(font.headers()["content-type"]).toBe("font/woff2");
  expect(font.headers()["cache-control"]).toContain("immutable");
});
