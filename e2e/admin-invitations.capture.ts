import path from "node:path";
import { fileURLToPath } from "node:url";

import { BASE_URL } from "./support/env.ts";
import { accounts, expect, test } from "./support/fixtures.ts";
import { waitForMail } from "./support/mailbox.ts";

/**
 * README screenshots of invitations (D55) at desktop and phone width: the Clients list with people invited
 * (docs/screenshots/admin-invited*.png) and the page an invited client opens (docs/screenshots/invitation*.png).
 * Run: npm run build && CAPTURE_SCREENSHOTS=1 npx playwright test e2e/admin-invitations.capture.ts
 */
const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../docs/screenshots");

const PEOPLE = [
  { clientId: "CL-2101", firstName: "Harriet", lastName: "Lane", invite: true },
  { clientId: "CL-2102", firstName: "Theo", lastName: "Marsh", invite: true },
  { clientId: "CL-2103", firstName: "Amira", lastName: "Cole", invite: false },
];

test("invitations: the Invited state and the invitation page", async ({ page, login, browser }) => {
  await login(accounts.admin);
  for (const person of PEOPLE) {
    const response = await page.request.post("/api/admin/addclient", {
      data: {
        clientId: person.clientId,
        firstName: person.firstName,
        lastName: person.lastName,
        email: `${person.firstName}.${person.lastName}@example.com`.toLowerCase(),
        privilege: "View",
        workbookIds: [],
        ...(person.invite ? { invite: true } : { password: "harbour-lantern-orchard" }),
      },
      headers: { Origin: BASE_URL },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  // One invitation revoked, so both states show.
  const theo = (await (await page.request.get("/api/admin/clients?q=CL-2102")).json()) as { c_id: number }[];
  const revoked = await page.request.delete(`/api/admin/invitations/client/${theo[0]!.c_id}`, {
    headers: { Origin: BASE_URL },
  });
  expect(revoked.status()).toBe(200);

  for (const [name, width, height] of [
    ["admin-invited", 1440, 900],
    ["admin-invited-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/admin/client-list?q=CL-21");
    await expect(page.getByText("Invitation revoked", { exact: true })).toBeVisible();
    await expect(page.getByText("Invited", { exact: true })).toBeVisible();
    await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  }

  const link = (await waitForMail("harriet.lane@example.com")).text.match(
    /https?:\/\/\S+\/invitation\?token=\S+/,
  )![0];
  for (const [name, width, height] of [
    ["invitation", 1440, 900],
    ["invitation-phone", 390, 844],
  ] as const) {
    const visitor = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await visitor.goto(link);
    await expect(visitor.getByRole("heading", { level: 1, name: "Welcome, Harriet" })).toBeVisible();
    await visitor.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
  }
});
