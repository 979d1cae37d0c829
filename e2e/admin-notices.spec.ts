import { addClientViaApi, newPerson, rowWith, searchList } from "./support/admin-helpers.ts";
import { accounts, expect, test } from "./support/fixtures.ts";

// Issue 12's small things: a confirmation must not stay on screen after the person's next action.

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

test("a list's confirmation goes at the next action, and comes back with the next save", async ({ page }) => {
  const client = newPerson("client");
  await page.goto("/admin/add-client");
  await page.getByLabel("Client ID").fill(client.businessId);
  await page.getByLabel("First Name").fill(client.firstName);
  await page.getByLabel("Last Name").fill(client.lastName);
  await page.getByLabel("Email").fill(client.email);
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByLabel("Password", { exact: true }).fill(client.password);
  await page.getByLabel("Privilege").selectOption("View");
  await page.getByRole("button", { name: "Register Client" }).click();
  await expect(page).toHaveURL("/admin/client-list");
  const notice = page.getByRole("status").filter({ hasText: "✅ Client registered successfully!" });
  await expect(notice).toBeVisible();

  // Typing a search is the next action: the earlier confirmation goes.
  await searchList(page, "Search clients", client.businessId);
  await expect(rowWith(page, client.businessId)).toBeVisible();
  await expect(notice).toBeHidden();

  // A new save brings its own confirmation; starting a delete (then cancelling it) makes it go.
  await page.getByRole("link", { name: `Edit client ${client.businessId}` }).click();
  await expect(page).toHaveURL(/\/admin\/edit-client\?id=/);
  await page.getByLabel("Last Name").fill(`${client.lastName}-Renamed`);
  await page.getByRole("button", { name: "Update Client" }).click();
  await expect(page).toHaveURL("/admin/client-list");
  const updated = page.getByRole("status").filter({ hasText: "Client updated successfully!" });
  await expect(updated).toBeVisible();
  await page
    .getByRole("button", { name: /^Delete client / })
    .first()
    .click();
  await expect(updated).toBeHidden();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(updated).toBeHidden();
});

test("Edit Client shows only the latest action's message", async ({ page }) => {
  const client = newPerson("client");
  await addClientViaApi(page, client, []);
  await page.goto(`/admin/edit-client?id=${encodeURIComponent(client.businessId)}`);

  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("button", { name: "Yes, Sign out" }).click();
  const signedOut = page.getByRole("status").filter({ hasText: "They were not signed in anywhere." });
  await expect(signedOut).toBeVisible();

  await page.getByRole("button", { name: "Send password reset email" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `A password reset email was sent to ${client.email}.` }),
  ).toBeVisible();
  await expect(signedOut).toBeHidden();
});
