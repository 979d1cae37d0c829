import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { parse } from "csv-parse/sync";

import { CLIENT_HEADER, clientRows, csvFile } from "./support/import-files.ts";
import { uniqueToken } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, postAuth, test } from "./support/fixtures.ts";

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

test("CSV import: preview with the bad rows, import with progress, failed rows downloaded, fixed and imported", async ({
  page,
  browser,
}) => {
  // Forty-odd passwords are hashed on purpose slowly.
  test.slow();
  const token = uniqueToken();
  const { good, bad } = clientRows(token);
  const file = csvFile([CLIENT_HEADER, ...good.slice(0, 10), ...bad, ...good.slice(10)]);

  await test.step("upload from the Clients list and see the 5 problems in the preview", async () => {
    await page.goto("/admin/client-list");
    await page.getByRole("link", { name: "Import CSV" }).click();
    await expect(page).toHaveURL("/admin/import?kind=client");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Import clients from CSV");
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "clients.csv", mimeType: "text/csv", buffer: file });
    await page.getByRole("button", { name: "Upload and check" }).click();
    await expect(page).toHaveURL(/\/admin\/import\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("import-summary")).toHaveText(
      "25 rows in the file: 20 rows ready to import, 5 rows with problems.",
    );
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("3");
    const problems = page.getByRole("table", { name: "Rows with problems" }).getByRole("row");
    await expect(problems).toHaveCount(6);
    await expect(problems.nth(1)).toContainText("Email is required.");
    await expect(problems.nth(2)).toContainText("Privilege must be one of Build, Analyze, Act, View.");
    await expect(problems.nth(3)).toContainText("Unknown workbook: No Such Workbook.");
    await expect(problems.nth(4)).toContainText(`Email imported.${token}.3@example.com is also on line 4.`);
    await expect(problems.nth(5)).toContainText("Enter a valid email address.");
  });

  await test.step("import: the progress bar, then the report", async () => {
    const jobUrl = page.url();
    await page.getByRole("button", { name: "Import 20 clients" }).click();
    await expect(page.getByRole("progressbar")).toBeVisible();
    // The admin may leave and come back to the job's address.
    await page.goto("/admin/client-list");
    await page.goto(jobUrl);
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("import-created")).toHaveText("20");
    await expect(page.getByTestId("import-failed")).toHaveText("5");
  });

  let fixed: Buffer;
  await test.step("download the failed rows: formula cells neutralised, passwords left out", async () => {
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download failed rows" }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe("clients-failed-rows.csv");
    const text = await (
      await saved.createReadStream()
    )
      .toArray()
      .then((chunks) => Buffer.concat(chunks).toString());
    const [header, ...rows] = parse(text, { bom: true }) as string[][];
    expect(header).toEqual([...CLIENT_HEADER, "Error"]);
    expect(rows).toHaveLength(5);
    expect(rows[4]![1]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(rows.every((r) => r[4] === "")).toBe(true);
    fixed = csvFile([
      CLIENT_HEADER,
      ...rows.map((r, i) => [
        r[0]!,
        `Fixed${i + 1}`,
        r[2]!,
        `fixed.${token}.${i + 1}@example.com`,
        `amber-meadow-${i + 1}-quill`,
        "View",
        "",
      ]),
    ]);
  });

  await test.step("upload the fixed rows and import them", async () => {
    await page.getByRole("link", { name: "Import another file" }).click();
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "clients-fixed.csv", mimeType: "text/csv", buffer: fixed });
    await page.getByRole("button", { name: "Upload and check" }).click();
    await expect(page.getByTestId("import-summary")).toHaveText(
      "5 rows in the file: 5 rows ready to import, 0 rows with problems.",
    );
    await page.getByRole("button", { name: "Import 5 clients" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("import-created")).toHaveText("5");
    await expect(page.getByTestId("import-failed")).toHaveText("0");
  });

  await test.step("25 clients, who can sign in; importing the first file again creates nobody", async () => {
    // List search matches the start of a Client ID: the 20 imported at first and the 5 fixed ones.
    const count = async (prefix: string) =>
      (
        (await (
          await page.request.get(`/api/admin/clients?q=${prefix}-${token}&limit=100`)
        ).json()) as unknown[]
      ).length;
    expect([await count("IMP"), await count("BAD")]).toEqual([20, 5]);
    await page.getByRole("link", { name: "Go to clients" }).click();
    await page.getByRole("searchbox", { name: "Search clients" }).fill(`IMP-${token}-7`);
    await expect(page.getByRole("link", { name: `Edit client IMP-${token}-7` })).toBeVisible();

    const context = await browser.newContext();
    const signIn = await postAuth(context.request, "/sign-in/email", {
      email: `imported.${token}.7@example.com`,
      password: "copper-valley-7-lantern",
    });
    expect(signIn.status()).toBe(200);
    await context.close();

    await page.goto("/admin/import?kind=client");
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "clients.csv", mimeType: "text/csv", buffer: file });
    await page.getByRole("button", { name: "Upload and check" }).click();
    await expect(page.getByTestId("import-summary")).toHaveText(
      "25 rows in the file: 0 rows ready to import, 20 rows already in the portal (skipped), 5 rows with problems.",
    );
    await expect(page.getByRole("button", { name: "Import 0 clients" })).toBeDisabled();
  });
});

test("CSV import refuses a file that is not CSV with a clear message", async ({ page }) => {
  await page.goto("/admin/employee-list");
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page).toHaveURL("/admin/import?kind=employee");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Import employees from CSV");
  await page.getByLabel("CSV file").setInputFiles({
    name: "employees.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(64, 1)]),
  });
  await page.getByRole("button", { name: "Upload and check" }).click();
  await expect(page.getByRole("alert")).toContainText(
    "This is a spreadsheet workbook (.xlsx), not a CSV file.",
  );
  await expect(page).toHaveURL("/admin/import?kind=employee");

  await page.getByLabel("CSV file").setInputFiles({
    name: "employees.csv",
    mimeType: "text/csv",
    buffer: Buffer.alloc(21 * 1024 * 1024, 0x61),
  });
  await page.getByRole("button", { name: "Upload and check" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "The file is larger than 20 MB. Split it into smaller files.",
  );
  await expect(page).toHaveURL("/admin/import?kind=employee");
});

async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

test("the import screens have no axe violations", async ({ page }) => {
  test.slow();
  await page.goto("/admin/import?kind=client");
  await expect(page.getByRole("heading", { level: 1, name: "Import clients from CSV" })).toBeVisible();
  await expectNoViolations(page);

  const { good, bad } = clientRows(uniqueToken());
  const uploaded = await page.request.post("/api/admin/imports?kind=client&fileName=axe.csv", {
    headers: { Origin: BASE_URL, "Content-Type": "text/csv" },
    data: csvFile([CLIENT_HEADER, good[0]!, bad[1]!]),
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const { id } = (await uploaded.json()) as { id: string };
  await page.goto(`/admin/import/${id}`);
  await expect(page.getByTestId("import-summary")).toBeVisible();
  await expectNoViolations(page);

  await page.getByRole("button", { name: "Import 1 client" }).click();
  await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 60_000 });
  await expectNoViolations(page);
});
