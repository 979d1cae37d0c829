import { accounts, expect, test } from "./support/fixtures.ts";

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

// The form and the API read the same contract (packages/contracts/src/text.ts): the person sees the API's
// message next to the field, and nothing is sent.
test("a control character in a name is refused on Add Client with the field's message, and nothing is sent", async ({
  page,
}) => {
  let addRequests = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/admin/addclient")) addRequests += 1;
  });
  await page.goto("/admin/add-client");
  await page.getByLabel("Client ID").fill("CL-CTRL");
  await page.getByLabel("First Name").fill("Ann\u0007e");
  await page.getByLabel("Last Name").fill("Lee");
  await page.getByLabel("Email").fill("ann.lee.ctrl@example.com");
  // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByLabel("Password", { exact: true }).fill("long-enough-password");
  await page.getByLabel("Privilege").selectOption("View");
  await page.getByRole("button", { name: "Register Client" }).click();

  const firstName = page.getByLabel("First Name", { exact: true });
  await expect(firstName).toHaveAttribute("aria-invalid", "true");
  await expect(firstName).toHaveAccessibleDescription(/First Name must not contain control characters\./);
  // INPUT_RULES_SCREENSHOTS=<dir>: the message as a person sees it, on a desktop and on a phone.
  const shots = process.env.INPUT_RULES_SCREENSHOTS;
  for (const width of shots ? [1440, 390] : []) {
    await page.setViewportSize({ width, height: 900 });
    await firstName.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/add-client-control-character-${width}.png` });
  }
  expect(addRequests).toBe(0);
});
