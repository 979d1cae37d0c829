import { DEMO_WORKBOOKS } from "../packages/contracts/src/demo.ts";
import { BASE_URL } from "./support/env.ts";
import { holdRegistrationFrame, waitForAnalyticsServer } from "./support/admin-frames.ts";
import {
  addWorkbookViaApi,
  demoWorkbook,
  newPerson,
  rowWith,
  searchList,
  sigmaWorkbookName,
  uniqueToken,
} from "./support/admin-helpers.ts";
import { accounts, expect, postAuth, submitSignIn, test } from "./support/fixtures.ts";

test.beforeEach(async ({ login }) => {
  await login(accounts.admin);
});

test("client and employee lifecycle: add with assignments, list, edit, sign in, delete", async ({
  page,
  browser,
}) => {
  // Password hashing is deliberately slow and this journey registers two people.
  test.slow();
  const token = uniqueToken();
  const client = newPerson("client");
  const employee = newPerson("employee");
  const clientName = `${client.firstName} ${client.lastName}`;
  const employeeName = `${employee.firstName} ${employee.lastName}`;
  const quarterly = await addWorkbookViaApi(
    page,
    sigmaWorkbookName(`Quarterly Review ${token}`),
    "Review Clients",
  );
  // A workbook the built-in analytics server really has, so the registration frame opens a workbook
  // (the registration URL is minted for the person's first workbook by id: the demo one).
  const portfolio = await demoWorkbook(page, DEMO_WORKBOOKS[0].workbookName);
  await waitForAnalyticsServer(page.request);

  await test.step("Add Client with two workbooks; the Sigma frame loads, then the client list", async () => {
    await page.goto("/admin/client-list");
    await page.getByRole("link", { name: "+Add Client" }).click();
    await expect(page).toHaveURL("/admin/add-client");

    await page.getByLabel("Client ID").fill(client.businessId);
    await page.getByLabel("First Name").fill(client.firstName);
    await page.getByLabel("Last Name").fill(client.lastName);
    await page.getByLabel("Email").fill(client.email);
    // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
    await page.getByRole("radio", { name: "Set a password" }).check();
    await page.getByLabel("Password", { exact: true }).fill(client.password);
    await page.getByLabel("Privilege").selectOption("Analyze");

    const workbooks = page.getByRole("button", { name: /^Workbooks \(optional\)/ });
    await expect(workbooks).toHaveAccessibleName("Workbooks (optional) Select workbooks...");
    await workbooks.click();
    const search = page.getByRole("combobox", { name: "Search workbooks" });
    const listbox = page.getByRole("listbox", { name: "Workbooks (optional)" });
    await search.fill(token);
    await listbox.getByRole("option", { name: new RegExp(quarterly.workbook_name) }).click();
    await expect(listbox.getByRole("option", { selected: true })).toHaveCount(1);
    await search.fill(portfolio.workbook_name);
    await listbox.getByRole("option", { name: new RegExp(portfolio.workbook_name) }).click();
    await expect(listbox.getByRole("option", { name: new RegExp(portfolio.workbook_name) })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await page.keyboard.press("Escape");
    await expect(workbooks).toHaveText("2 workbook(s) selected");
    await expect(page.getByRole("list", { name: "Selected workbooks" }).getByRole("listitem")).toHaveText([
      `Quarterly Review ${token}`,
      "Portfolio Overview",
    ]);

    const addRequest = page.waitForRequest("**/api/admin/addclient");
    const frame = await holdRegistrationFrame(page);
    await page.getByRole("button", { name: "Register Client" }).click();
    const sent = (await addRequest).postDataJSON() as Record<string, unknown>;
    expect(sent).toMatchObject({
      clientId: client.businessId,
      email: client.email,
      role: "client",
      privilege: "Analyze",
      workbookIds: [quarterly.id, portfolio.id],
      teams: ["Review Clients", portfolio.team_name],
    });

    await expect(page.getByText("✅ Client registered successfully!")).toBeVisible();
    await expect(
      page.getByRole("status").filter({ hasText: "Registering client in Sigma..." }),
    ).toBeVisible();
    // The hidden frame asks the analytics server for the new client's one-time embed URL.
    expect(await frame.request).toMatch(/:jwt=/);
    await expect(page).toHaveURL("/admin/add-client");
    const answer = await frame.release();
    expect(answer.status(), `analytics server answered ${answer.status()} for the registration frame`).toBe(
      200,
    );

    await expect(page).toHaveURL("/admin/client-list");
    await expect(
      page.getByRole("status").filter({ hasText: "✅ Client registered successfully!" }),
    ).toBeVisible();
    await searchList(page, "Search clients", client.businessId);
    const row = rowWith(page, client.businessId);
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell")).toHaveText([
      client.businessId,
      client.firstName,
      client.lastName,
      client.email,
      "None",
      // Sigma sync: on its way, or already through.
      /^(Pending|Synced)$/,
      /Delete/,
    ]);
  });

  await test.step("Add Employee assigned to the client (keyboard), chip with Remove", async () => {
    await page.goto("/admin/employee-list");
    await page.getByRole("link", { name: "+Add Employee" }).click();
    await expect(page).toHaveURL("/admin/add-employee");

    await page.getByLabel("Employee ID").fill(employee.businessId);
    await page.getByLabel("First Name").fill(employee.firstName);
    await page.getByLabel("Last Name").fill(employee.lastName);
    await page.getByLabel("Email Address").fill(employee.email);
    // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
    await page.getByRole("radio", { name: "Set a password" }).check();
    await page.getByLabel("Password", { exact: true }).fill(employee.password);
    await page.getByLabel("Privilege").selectOption("Act");

    const assign = page.getByRole("button", { name: /^Assign Clients/ });
    await expect(assign).toHaveText("Select clients...");
    await assign.focus();
    await page.keyboard.press("ArrowDown");
    const search = page.getByRole("combobox", { name: "Search clients" });
    await expect(search).toBeFocused();
    await search.fill(client.lastName);
    const clientList = page.getByRole("listbox", { name: "Assign Clients" });
    const option = clientList.getByRole("option", { name: new RegExp(clientName) });
    await expect(clientList.getByRole("option")).toHaveCount(1);
    await expect(option).toHaveAttribute("aria-selected", "false");
    await page.keyboard.press("ArrowDown");
    await expect(search).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id")) ?? "");
    await page.keyboard.press("Enter");
    await expect(option).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Escape");
    await expect(assign).toBeFocused();
    await expect(assign).toHaveText("1 client(s) selected");

    const chips = page.getByRole("list", { name: "Selected clients" });
    await expect(chips.getByRole("listitem")).toHaveText([clientName]);
    // Remove, then choose again with the mouse.
    await chips.getByRole("button", { name: `Remove ${clientName}` }).click();
    await expect(assign).toHaveText("Select clients...");
    await expect(chips).toHaveCount(0);
    await assign.click();
    await page.getByRole("combobox", { name: "Search clients" }).fill(client.businessId);
    await clientList.getByRole("option", { name: new RegExp(clientName) }).click();
    await expect(assign).toHaveText("1 client(s) selected");
    await expect(chips.getByRole("button", { name: `Remove ${clientName}` })).toBeVisible();

    const frame = await holdRegistrationFrame(page);
    await page.getByRole("button", { name: "Register Employee" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Registering employee in Sigma..." }),
    ).toBeVisible();
    await expect(page.getByText("✅ Employee registered successfully!")).toBeVisible();
    const answer = await frame.release();
    expect(answer.status(), `analytics server answered ${answer.status()} for the registration frame`).toBe(
      200,
    );

    await expect(page).toHaveURL("/admin/employee-list");
    await expect(
      page.getByRole("status").filter({ hasText: "Employee registered successfully!" }),
    ).toBeVisible();
    await searchList(page, "Search employees", employee.businessId);
    await expect(rowWith(page, employee.businessId).getByRole("cell")).toHaveText([
      employee.businessId,
      employee.firstName,
      employee.lastName,
      employee.email,
      clientName,
      // Sigma sync: on its way, or already through.
      /^(Pending|Synced)$/,
      /Delete/,
    ]);
  });

  await test.step("the client list names the assigned employee", async () => {
    await page.goto("/admin/client-list");
    await searchList(page, "Search clients", client.businessId);
    await expect(rowWith(page, client.businessId).getByRole("cell").nth(4)).toHaveText(employeeName);
  });

  await test.step("Edit Client: read-only sign-in and access, 'Client updated successfully!'", async () => {
    await rowWith(page, client.businessId).getByRole("cell", { name: client.email }).click();
    await expect(page).toHaveURL(`/admin/edit-client?id=${encodeURIComponent(client.businessId)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Edit Client" })).toBeVisible();
    await expect(page.getByLabel("Client ID")).toHaveValue(client.businessId);
    await expect(page.getByText(client.email)).toBeVisible();
    await expect(page.getByText("********", { exact: true })).toBeVisible();
    await expect(page.getByText("Analyze", { exact: true })).toBeVisible();
    await expect(page.getByText(`Quarterly Review ${token}`, { exact: true })).toBeVisible();
    await expect(page.getByText("Portfolio Overview", { exact: true })).toBeVisible();
    // Email and password cannot be edited here.
    await expect(page.getByRole("textbox", { name: "Email" })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Password" })).toHaveCount(0);

    // A reload has no navigation state: the client is looked up from the address.
    await page.reload();
    await expect(page.getByLabel("First Name")).toHaveValue(client.firstName);
    await expect(page.getByText(`Quarterly Review ${token}`, { exact: true })).toBeVisible();

    let editRequests = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/api/admin/editclient")) editRequests += 1;
    });
    await page.getByLabel("First Name").fill("");
    await page.getByRole("button", { name: "Update Client" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "All fields are required." })).toBeVisible();
    await expect(page.getByLabel("First Name")).toBeFocused();
    expect(editRequests).toBe(0);

    await page.getByLabel("First Name").fill("Quincy");
    await page.getByRole("button", { name: "Update Client" }).click();
    await expect(page).toHaveURL("/admin/client-list");
    await expect(page.getByRole("status").filter({ hasText: "Client updated successfully!" })).toBeVisible();
    expect(editRequests).toBe(1);
    await searchList(page, "Search clients", client.businessId);
    await expect(rowWith(page, client.businessId).getByRole("cell").nth(1)).toHaveText("Quincy");
  });

  await test.step("the new client signs in at /login with the admin's password and lands on /", async () => {
    const context = await browser.newContext({ baseURL: BASE_URL });
    const clientPage = await context.newPage();
    await clientPage.goto("/login");
    await submitSignIn(clientPage, client);
    await expect(clientPage).toHaveURL("/");
    await expect(clientPage.getByRole("button", { name: "Open account menu" })).toBeVisible();
    await context.close();
  });

  await test.step("Edit Employee: privilege and clients; the lists follow", async () => {
    await page.goto("/admin/employee-list");
    await searchList(page, "Search employees", employee.businessId);
    await rowWith(page, employee.businessId)
      .getByRole("link", { name: `Edit employee ${employee.businessId}` })
      .click();
    await expect(page).toHaveURL(`/admin/edit-employee?id=${encodeURIComponent(employee.businessId)}`);
    await expect(page.getByLabel("Privilege")).toHaveValue("Act");
    await expect(page.getByText(employee.email)).toBeVisible();
    await expect(page.getByText("********", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Assign Clients/ })).toHaveText("1 client(s) selected");

    await page.getByLabel("Privilege").selectOption("View");
    await page.getByLabel("Last Name").fill(`${employee.lastName}-Lee`);
    await page
      .getByRole("button", { name: `Remove ${clientName.replace(client.firstName, "Quincy")}` })
      .click();
    await expect(page.getByRole("button", { name: /^Assign Clients/ })).toHaveText("Select clients...");
    await page.getByRole("button", { name: "Update Employee" }).click();
    await expect(page).toHaveURL("/admin/employee-list");
    await searchList(page, "Search employees", employee.businessId);
    await expect(rowWith(page, employee.businessId).getByRole("cell")).toHaveText([
      employee.businessId,
      employee.firstName,
      `${employee.lastName}-Lee`,
      employee.email,
      "None",
      // Sigma sync: on its way, or already through.
      /^(Pending|Synced)$/,
      /Delete/,
    ]);

    await page.goto("/admin/client-list");
    await searchList(page, "Search clients", client.businessId);
    await expect(rowWith(page, client.businessId).getByRole("cell").nth(4)).toHaveText("None");
  });

  await test.step("delete the employee and the client through the dialog", async () => {
    await page.goto("/admin/employee-list");
    await searchList(page, "Search employees", employee.businessId);
    const employeeRow = rowWith(page, employee.businessId);
    await employeeRow.getByRole("button", { name: `Delete employee ${employee.businessId}` }).click();
    const employeeDialog = page.getByRole("alertdialog", {
      name: "Are you sure you want to delete this employee?",
    });
    await employeeDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(employeeDialog).toBeHidden();
    await expect(employeeRow).toHaveCount(1);
    await employeeRow.getByRole("button", { name: `Delete employee ${employee.businessId}` }).click();
    await employeeDialog.getByRole("button", { name: "Yes, Delete" }).click();
    await expect(employeeRow).toHaveCount(0);

    await page.goto("/admin/client-list");
    await searchList(page, "Search clients", client.businessId);
    const clientRow = rowWith(page, client.businessId);
    await clientRow.getByRole("button", { name: `Delete client ${client.businessId}` }).click();
    const clientDialog = page.getByRole("alertdialog", {
      name: "Are you sure you want to delete this client?",
    });
    await expect(clientDialog).toContainText(client.businessId);
    await clientDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(clientRow).toHaveCount(1);
    await clientRow.getByRole("button", { name: `Delete client ${client.businessId}` }).click();
    await clientDialog.getByRole("button", { name: "Yes, Delete" }).click();
    await expect(clientRow).toHaveCount(0);

    // The deleted client's sign-in is gone too (DEVIATION D19).
    const signIn = await postAuth(page.context().request, "/sign-in/email", {
      email: client.email,
      password: client.password,
    });
    // Refused (Better Auth answers 403 for the disabled account), and no session was made.
    expect([401, 403]).toContain(signIn.status());
  });
});

test("Add Client refuses a common password with the policy's message under the field, and registers nothing", async ({
  page,
}) => {
  const client = newPerson("client");
  await page.goto("/admin/add-client");
  await page.getByLabel("Client ID").fill(client.businessId);
  await page.getByLabel("First Name").fill(client.firstName);
  await page.getByLabel("Last Name").fill(client.lastName);
  await page.getByLabel("Email").fill(client.email);
  // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByLabel("Password", { exact: true }).fill("password123");
  await page.getByLabel("Privilege").selectOption("View");
  const response = page.waitForResponse("**/api/admin/addclient");
  await page.getByRole("button", { name: "Register Client" }).click();
  expect((await response).status()).toBe(400);
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(
    /This password is one of the most commonly used passwords\. Please choose a different one\./,
  );
  await expect(page).toHaveURL("/admin/add-client");
  const list = await page.request.get(`/api/admin/clients?q=${client.businessId}`);
  expect(await list.json()).toEqual([]);
});

test("Add Client without workbooks goes straight to the list (no embed URL)", async ({ page }) => {
  const client = newPerson("client");
  let analyticsRequests = 0;
  page.on("request", (request) => {
    if (!request.url().startsWith(BASE_URL)) analyticsRequests += 1;
  });
  await page.goto("/admin/add-client");
  await page.getByLabel("Client ID").fill(client.businessId);
  await page.getByLabel("First Name").fill(client.firstName);
  await page.getByLabel("Last Name").fill(client.lastName);
  await page.getByLabel("Email").fill(client.email);
  // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByLabel("Password", { exact: true }).fill(client.password);
  await page.getByLabel("Privilege").selectOption("Build");
  // Hold the request (it still goes to the real server) until the in-flight state has been seen:
  // without a frame to wait for, the form leaves as soon as the answer arrives.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/admin/addclient", async (route) => {
    await held;
    await route.continue();
  });
  const response = page.waitForResponse("**/api/admin/addclient");
  await page.getByRole("button", { name: "Register Client" }).click();
  await expect(page.getByRole("button", { name: "Registering..." })).toBeDisabled();
  release();
  expect(((await (await response).json()) as { data: { embed: unknown } }).data.embed).toEqual({
    embedUrl: null,
  });
  await expect(page).toHaveURL("/admin/client-list");
  await expect(
    page.getByRole("status").filter({ hasText: "✅ Client registered successfully!" }),
  ).toBeVisible();
  expect(analyticsRequests).toBe(0);
});

test("empty Add Client and Add Employee forms: 'All fields are required.' and nothing sent", async ({
  page,
}) => {
  let addRequests = 0;
  page.on("request", (request) => {
    if (/\/api\/admin\/add(client|employee)$/.test(request.url())) addRequests += 1;
  });

  await page.goto("/admin/add-client");
  // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByRole("button", { name: "Register Client" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "All fields are required." })).toBeVisible();
  for (const label of ["Client ID", "First Name", "Last Name", "Email", "Password", "Privilege"]) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(/This field is required\./);
  }
  // Filled in, the message goes away.
  await page.getByLabel("Client ID").fill("CL-X");
  await page.getByLabel("First Name").fill("A");
  await page.getByLabel("Last Name").fill("B");
  await page.getByLabel("Email").fill("a.b@example.com");
  // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByLabel("Password", { exact: true }).fill("long-enough-password");
  await page.getByLabel("Privilege").selectOption("View");
  await expect(page.getByRole("alert").filter({ hasText: "All fields are required." })).toHaveCount(0);

  await page.goto("/admin/add-employee");
  await page.getByRole("button", { name: "Register Employee" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "All fields are required." })).toBeVisible();
  await expect(page.getByLabel("Email Address")).toHaveAttribute("aria-invalid", "true");
  expect(addRequests).toBe(0);
});

test("a taken Client ID shows the server's error on Add Client", async ({ page }) => {
  const client = newPerson("client");
  await page.goto("/admin/add-client");
  await page.getByLabel("Client ID").fill("CL-1001");
  await page.getByLabel("First Name").fill(client.firstName);
  await page.getByLabel("Last Name").fill(client.lastName);
  await page.getByLabel("Email").fill(client.email);
  // "Set a password" (the spec's form; "Send an invitation" is the default, D55).
  await page.getByRole("radio", { name: "Set a password" }).check();
  await page.getByLabel("Password", { exact: true }).fill(client.password);
  await page.getByLabel("Privilege").selectOption("View");
  await page.getByRole("button", { name: "Register Client" }).click();
  await expect(page.getByRole("alert")).toHaveText("Client ID CL-1001 is already in use.");
  await expect(page).toHaveURL("/admin/add-client");
  await expect(page.getByRole("button", { name: "Register Client" })).toBeEnabled();
});
