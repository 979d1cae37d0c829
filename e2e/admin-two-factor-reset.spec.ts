import { addClientViaApi, newPerson } from "./support/admin-helpers.ts";
import { BASE_URL } from "./support/env.ts";
import { accounts, expect, postAuth, secretOfKey, test, totpCode } from "./support/fixtures.ts";

/**
 * Recovery after a lost authenticator (decision 006, DEVIATIONS D32): an admin resets a client's two-step
 * verification on Edit Client; the client is signed out and signs in again with the password alone.
 */
test("an admin resets a client's two-step verification; the client is signed out and signs in without a code", async ({
  page,
  login,
  playwright,
}) => {
  // Each code works once, so this journey may wait for the authenticator's next code.
  test.slow();
  await login(accounts.admin);
  const person = newPerson("client");
  await addClientViaApi(page, person, []);

  // The client turns two-step verification on, then loses the phone.
  const client = await playwright.request.newContext({ baseURL: BASE_URL });
  expect((await postAuth(client, "/sign-in/email", person)).status()).toBe(200);
  const enabled = await postAuth(client, "/two-factor/enable", { password: person.password });
  expect(enabled.status(), await enabled.text()).toBe(200);
  const { totpURI } = (await enabled.json()) as { totpURI: string };
  const secret = secretOfKey(new URL(totpURI).searchParams.get("secret") ?? "");
  expect((await postAuth(client, "/two-factor/verify-totp", { code: await totpCode(secret) })).status()).toBe(
    200,
  );

  await page.goto(`/admin/edit-client?id=${person.businessId}`);
  const item = page.getByRole("definition").filter({ hasText: "authenticator app" });
  await expect(item).toContainText("On: signing in asks for a code from their authenticator app.");

  await test.step("Cancel keeps it; 'Yes, Reset' removes it and says so", async () => {
    await item.getByRole("button", { name: "Reset two-step verification" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Reset two-step verification?" });
    await expect(dialog).toContainText(
      `Only when ${person.firstName} ${person.lastName} has lost their authenticator app and backup codes`,
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toContainText("On: signing in asks for a code");

    await item.getByRole("button", { name: "Reset two-step verification" }).click();
    await dialog.getByRole("button", { name: "Yes, Reset" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status")).toHaveText(
      "Two-step verification was reset. They set it up again at their next sign-in.",
    );
    await expect(page.getByText("Off: signing in asks for the password only")).toBeVisible();
    await expect(page.getByRole("button", { name: "Reset two-step verification" })).toHaveCount(0);
  });

  await test.step("the client's session has ended, and the password alone signs in again", async () => {
    expect(await (await client.get("/api/auth/get-session")).json()).toBeNull();
    const again = await postAuth(client, "/sign-in/email", person);
    expect(again.status()).toBe(200);
    expect(await again.json()).not.toHaveProperty("twoFactorRedirect");
  });
  await client.dispose();
});
