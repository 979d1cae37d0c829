/**
 * The portal against a stand-in for a real Sigma org, written only from Sigma's published definitions
 * (support/sigma-standin, not from this project's client or built-in server): people added, edited,
 * deleted and added again across shared teams, someone who already signs in to Sigma directly, workbook
 * sharing, minted URLs, sessions and View as client. No change may fail for good, no internal user may be
 * touched, and no email may end with two members.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { biMembers, provisioningRequests } from "../src/db/schema.ts";
import { createSigmaRestClient, deliverDueRequests } from "../src/sigma/provisioning.ts";
import type { SigmaRestClient } from "@portal/sigma";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startSigmaStandIn, type SigmaStandIn } from "./support/sigma-standin/index.ts";

const PORTFOLIO = { name: "Portfolio Overview", workbookUrlId: "wBUBiChqcA6De2yMJGx4YJ" };
const TAX = { name: "Tax Center", workbookUrlId: "hPiZspmSJMAnf8GyCctPAE" };
const INCOME = { name: "Income and Fees", workbookUrlId: "hHwcpUAGGDWoQ6BGciXRUW" };

let database: DatabaseHandle;
let sigma: SigmaStandIn;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let client: SigmaRestClient;

beforeAll(async () => {
  sigma = await startSigmaStandIn({
    workbooks: [PORTFOLIO, TAX, INCOME],
    userAttributes: [{ name: "client_id" }, { name: "client_ids" }],
    owner: { email: "owner@meridian-advisory.example" },
  });
  database = await createTestDatabase();
  t = await createTestApp(database, {
    AUTH_IP_LIMIT_PER_MINUTE: "10000",
    SIGMA_EMBED_BASE_URL: `${sigma.url}/${sigma.orgSlug}`,
    SIGMA_EMBED_CLIENT_ID: sigma.embedCredentials.clientId,
    SIGMA_EMBED_SECRET: sigma.embedCredentials.secret,
    SIGMA_API_BASE_URL: sigma.url,
    SIGMA_API_CLIENT_ID: sigma.credentials.clientId,
    SIGMA_API_CLIENT_SECRET: sigma.credentials.clientSecret,
  });
  admin = await headersFor(t, "admin");
  client = await createSigmaRestClient(t.config);
}, 120_000);

afterAll(async () => {
  await t?.app.close();
  await database?.close();
  await sigma?.close();
});

async function call(method: "POST" | "PUT" | "DELETE" | "GET", url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: admin,
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
}

/** Delivers every due change (backoffs skipped), as the workers on every instance would. */
async function deliverAll() {
  for (let round = 0; round < 30; round++) {
    const result = await database.db.execute(
      sql`select count(*)::int as n from provisioning_requests where status = 'pending'`,
    );
    const [open] = (result as unknown as { rows: { n: number }[] }).rows;
    if (open!.n === 0) return;
    await database.db.execute(
      sql`update provisioning_requests set next_attempt_at = now() where status = 'pending'`,
    );
    await deliverDueRequests({ db: database.db, client, config: t.config, baseDelayMs: 1 });
  }
  throw new Error("changes still pending after 30 rounds");
}

const failedRows = () =>
  database.db
    .select({ kind: provisioningRequests.kind, lastError: provisioningRequests.lastError })
    .from(provisioningRequests)
    .where(eq(provisioningRequests.status, "failed"));

const teamNamesOf = (email: string) =>
  sigma
    .teamsOf(sigma.memberByEmail(email)!.memberId)
    .map((x) => x.name)
    .sort();

function claimsOf(url: string): Record<string, unknown> {
  const token = new URL(url).searchParams.get(":jwt")!;
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<
    string,
    unknown
  >;
}

const workbookIds: Record<string, number> = {};
const people: Record<string, number> = {};

describe("a Sigma org, as Sigma's published definitions describe it", () => {
  it("shares each catalogue workbook with its team, making the team", { timeout: 60_000 }, async () => {
    for (const [key, wb, team] of [
      ["portfolio", PORTFOLIO, "Portfolio Clients"],
      ["tax", TAX, "Tax Clients"],
    ] as const) {
      const res = await call("POST", "/api/admin/addworkbook", {
        workbook_name: `${wb.name.replace(/ /g, "-")}-${wb.workbookUrlId}`,
        team_name: team,
      });
      expect(res.statusCode).toBe(201);
      workbookIds[key] = res.json().data.id;
    }
    await deliverAll();
    for (const [wb, team] of [
      [PORTFOLIO, "Portfolio Clients"],
      [TAX, "Tax Clients"],
    ] as const) {
      const teamId = sigma.teamByName(team)!.teamId;
      const grants = sigma
        .grants()
        .filter((g) => g.inodeId === sigma.workbookByUrlId(wb.workbookUrlId)!.workbookId);
      expect(grants.map((g) => [g.teamId, g.permission])).toEqual([[teamId, "view"]]);
    }
    expect(await failedRows()).toEqual([]);
  });

  it(
    "provisions clients and an employee across shared teams, one embed member per email",
    { timeout: 60_000 },
    async () => {
      for (const [key, email, ids] of [
        ["olivia", "olivia.shared@example.com", [workbookIds.portfolio, workbookIds.tax]],
        ["marcus", "marcus.shared@example.com", [workbookIds.portfolio]],
      ] as const) {
        const res = await call("POST", "/api/admin/addclient", {
          clientId: `CL-${key.toUpperCase()}`,
          firstName: key === "olivia" ? "Olivia" : "Marcus",
          lastName: "Shared",
          email,
          password: `${key.length}-ledger-harbor-passphrase`,
          role: "client",
          // Olivia may analyse: View as client must not turn her into a viewer in Sigma.
          privilege: key === "olivia" ? "Analyze" : "View",
          workbookIds: ids,
        });
        expect(res.statusCode, res.body).toBe(201);
        people[key] = res.json().data.client.c_id;
      }
      const employee = await call("POST", "/api/admin/addemployee", {
        employeeId: "EM-PRIYA",
        firstName: "Priya",
        lastName: "Advisor",
        email: "priya.advisor@meridian-advisory.example",
        password: "compass-ledger-passphrase",
        role: "employee",
        privilege: "View",
        clientIds: [people.olivia],
      });
      expect(employee.statusCode).toBe(201);
      people.priya = employee.json().data.employee.e_id;
      await deliverAll();

      expect(sigma.duplicateEmails()).toEqual([]);
      expect(sigma.memberByEmail("olivia.shared@example.com")).toMatchObject({
        userKind: "embed",
        firstName: "Olivia",
      });
      expect(teamNamesOf("olivia.shared@example.com")).toEqual(["Portfolio Clients", "Tax Clients"]);
      expect(teamNamesOf("marcus.shared@example.com")).toEqual(["Portfolio Clients"]);
      expect(teamNamesOf("priya.advisor@meridian-advisory.example")).toEqual([
        "Portfolio Clients",
        "Tax Clients",
      ]);

      // The employee loses a client: they leave the teams of that client's workbooks.
      const edit = await call("PUT", "/api/admin/editemployee", {
        eId: people.priya,
        employeeId: "EM-PRIYA",
        firstName: "Priya",
        lastName: "Advisor",
        privilege: "View",
        clientIds: [people.marcus],
      });
      expect(edit.statusCode).toBe(200);
      await deliverAll();
      expect(teamNamesOf("priya.advisor@meridian-advisory.example")).toEqual(["Portfolio Clients"]);
      expect(await failedRows()).toEqual([]);
      expect(sigma.violations).toEqual([]);
    },
  );

  it(
    "links someone who already signs in to Sigma directly and never changes them",
    { timeout: 60_000 },
    async () => {
      const internal = sigma.addMember({
        email: "grace.internal@meridian-advisory.example",
        userKind: "internal",
        memberType: "Build",
        firstName: "Grace",
        lastName: "Analyst",
      });
      const add = await call("POST", "/api/admin/addemployee", {
        employeeId: "EM-GRACE",
        firstName: "Gracie",
        lastName: "Portal",
        email: "grace.internal@meridian-advisory.example",
        password: "summit-vault-passphrase",
        role: "employee",
        privilege: "View",
        clientIds: [people.olivia],
      });
      expect(add.statusCode).toBe(201);
      people.grace = add.json().data.employee.e_id;
      await deliverAll();

      const after = sigma.memberByEmail("grace.internal@meridian-advisory.example")!;
      expect(after).toMatchObject({ memberId: internal.memberId, userKind: "internal", memberType: "Build" });
      expect(after.firstName).toBe("Grace");
      expect(sigma.teamsOf(internal.memberId)).toEqual([]);
      expect(sigma.patchLog.filter((p) => p.memberId === internal.memberId)).toEqual([]);
      const [link] = await database.db
        .select()
        .from(biMembers)
        .where(eq(biMembers.email, "grace.internal@meridian-advisory.example"));
      expect(link).toMatchObject({ memberId: internal.memberId, userKind: "internal" });

      // Their embed carries no user claims; Sigma opens it with their own set-up (here a direct grant).
      sigma.addGrant({ workbookUrlId: PORTFOLIO.workbookUrlId, memberId: internal.memberId });
      const cookie = await t.sessionCookie(
        "grace.internal@meridian-advisory.example",
        "summit-vault-passphrase",
      );
      const minted = await t.app.inject({
        method: "POST",
        url: "/api/sigma/provision-and-embed",
        headers: { cookie, origin: ORIGIN },
        payload: { workbookId: `Portfolio-Overview-${PORTFOLIO.workbookUrlId}` },
      });
      expect(minted.statusCode).toBe(200);
      expect(Object.keys(claimsOf(minted.json().embedUrl)).sort()).toEqual(["exp", "iat", "jti", "sub"]);
      expect((await fetch(minted.json().embedUrl)).status).toBe(200);

      // The admin screens say so.
      const list = await call("GET", "/api/admin/employees?q=grace");
      expect(list.json()[0]).toMatchObject({ employee_id: "EM-GRACE", managed_in_sigma: true });
      const status = await call("GET", "/api/admin/sync/status");
      expect(status.json().managed_in_sigma).toEqual([
        expect.objectContaining({ type: "employee", business_id: "EM-GRACE" }),
      ]);

      // Deleting them in the portal leaves their Sigma account as it was.
      expect((await call("DELETE", `/api/admin/deleteemployee/${people.grace}`)).statusCode).toBe(200);
      await deliverAll();
      expect(sigma.memberByEmail("grace.internal@meridian-advisory.example")!.isArchived).toBe(false);
      expect(sigma.violations).toEqual([]);
    },
  );

  it(
    "deactivates a deleted client and brings the same member back when they are added again",
    { timeout: 60_000 },
    async () => {
      const before = sigma.memberByEmail("marcus.shared@example.com")!;
      expect((await call("DELETE", `/api/admin/deleteclient/${people.marcus}`)).statusCode).toBe(200);
      await deliverAll();
      expect(sigma.memberByEmail("marcus.shared@example.com")!.isArchived).toBe(true);

      const again = await call("POST", "/api/admin/addclient", {
        clientId: "CL-MARCUS",
        firstName: "Marcus",
        lastName: "Returned",
        email: "marcus.shared@example.com",
        password: "orchard-river-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [workbookIds.tax],
      });
      expect(again.statusCode).toBe(201);
      people.marcus = again.json().data.client.c_id;
      await deliverAll();
      const after = sigma.memberByEmail("marcus.shared@example.com")!;
      expect(after).toMatchObject({ memberId: before.memberId, isArchived: false, lastName: "Returned" });
      expect(teamNamesOf("marcus.shared@example.com")).toEqual(["Tax Clients"]);
      expect(sigma.duplicateEmails()).toEqual([]);
      expect(await failedRows()).toEqual([]);
    },
  );

  it(
    "moves the sharing when a workbook changes team, removes it when it is deleted, and reports an unknown workbook",
    { timeout: 60_000 },
    async () => {
      const tax = sigma.workbookByUrlId(TAX.workbookUrlId)!.workbookId;
      const edit = await call("PUT", `/api/admin/editworkbook/${workbookIds.tax}`, {
        workbook_name: `Tax-Center-${TAX.workbookUrlId}`,
        team_name: "Tax Desk",
      });
      expect(edit.statusCode).toBe(200);
      await deliverAll();
      const onTax = () => sigma.grants().filter((g) => g.inodeId === tax);
      expect(onTax().map((g) => g.teamId)).toEqual([sigma.teamByName("Tax Desk")!.teamId]);
      expect(teamNamesOf("marcus.shared@example.com")).toEqual(["Tax Desk"]);

      expect((await call("DELETE", `/api/admin/deleteworkbook/${workbookIds.tax}`)).statusCode).toBe(200);
      await deliverAll();
      expect(onTax()).toEqual([]);

      const unknown = await call("POST", "/api/admin/addworkbook", {
        workbook_name: "Estate-Plan-ZZZZZZZZZZZZZZZZZZZZZZ",
        team_name: "Estate Clients",
      });
      expect(unknown.statusCode).toBe(201);
      await deliverAll();
      const failed = await failedRows();
      expect(failed).toEqual([
        { kind: "workbook.share", lastError: expect.stringMatching(/No workbook .* ZZZZZZZZZZZZZZZZZZZZZZ/) },
      ]);
      const sync = await call("GET", "/api/admin/sync?status=failed");
      expect(sync.json()).toEqual([
        expect.objectContaining({
          kind: "workbook.share",
          subject: "Estate-Plan-ZZZZZZZZZZZZZZZZZZZZZZ",
          team_name: "Estate Clients",
        }),
      ]);
      await call("DELETE", `/api/admin/deleteworkbook/${unknown.json().data.id}`);
      await database.db.execute(sql`delete from provisioning_requests where status = 'failed'`);
    },
  );

  it("mints URLs Sigma opens, with a session of an hour, and one-time", { timeout: 60_000 }, async () => {
    const cookie = await t.sessionCookie("olivia.shared@example.com", "6-ledger-harbor-passphrase");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision-and-embed",
      headers: { cookie, origin: ORIGIN },
      payload: { workbookId: `Portfolio-Overview-${PORTFOLIO.workbookUrlId}` },
    });
    expect(res.statusCode).toBe(200);
    const url = res.json().embedUrl as string;
    const claims = claimsOf(url);
    expect((claims.exp as number) - (claims.iat as number)).toBeGreaterThanOrEqual(3600);
    // The Tax Center left the catalogue above: her complete team list is the Portfolio's.
    expect(claims).toMatchObject({
      account_type: "Analyze",
      teams: ["Portfolio Clients"],
      user_attributes: { client_id: "CL-OLIVIA" },
    });
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url)).status).not.toBe(200);
    expect(sigma.violations).toEqual([]);
  });

  it("View as client leaves the client's Sigma identity as it was", { timeout: 60_000 }, async () => {
    // As the client's own embed left it.
    const cookie = await t.sessionCookie("olivia.shared@example.com", "6-ledger-harbor-passphrase");
    const own = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision-and-embed",
      headers: { cookie, origin: ORIGIN },
      payload: { workbookId: `Portfolio-Overview-${PORTFOLIO.workbookUrlId}` },
    });
    expect((await fetch(own.json().embedUrl)).status).toBe(200);
    const before = structuredClone(sigma.memberByEmail("olivia.shared@example.com")!);
    expect(before.userAttributes).toEqual({ client_id: "CL-OLIVIA", client_ids: "" });
    const teamsBefore = teamNamesOf("olivia.shared@example.com");
    const res = await call("POST", `/api/admin/viewasclient/${people.olivia}`, {
      workbookId: `Portfolio-Overview-${PORTFOLIO.workbookUrlId}`,
    });
    expect(res.statusCode).toBe(200);
    expect((await fetch(res.json().embedUrl)).status).toBe(200);
    const after = sigma.memberByEmail("olivia.shared@example.com")!;
    expect(after.memberType).toBe("Analyze");
    expect(after.memberType).toBe(before.memberType);
    expect(after.userAttributes).toEqual(before.userAttributes);
    expect(teamNamesOf("olivia.shared@example.com")).toEqual(teamsBefore);
    expect(sigma.embedLog.at(-1)).toMatchObject({ email: "olivia.shared@example.com", created: false });
  });

  it(
    "an admin who signs in to Sigma directly gets tokens without user claims once looked up",
    { timeout: 60_000 },
    async () => {
      const person = await t.createUser("admin");
      const internal = sigma.addMember({ email: person.email, userKind: "internal", memberType: "Admin" });
      const headers = { cookie: await t.readyCookie(person.email, person.password, "admin"), origin: ORIGIN };
      const preview = () =>
        t.app.inject({
          method: "POST",
          url: "/api/sigma/provision-and-embed",
          headers,
          payload: { workbookId: `Portfolio-Overview-${PORTFOLIO.workbookUrlId}` },
        });
      // Not known yet: the preview carries the admin's claims and queues one lookup.
      const first = await preview();
      expect(first.statusCode).toBe(200);
      expect(claimsOf(first.json().embedUrl)).toHaveProperty("account_type", "View");
      await preview();
      const lookups = await database.db
        .select()
        .from(provisioningRequests)
        .where(eq(provisioningRequests.kind, "member.link"));
      expect(lookups).toHaveLength(1);
      await deliverAll();
      // Linked: from now on only sub, jti, iat and exp; Sigma opens it with the admin's own access.
      sigma.addGrant({ workbookUrlId: PORTFOLIO.workbookUrlId, memberId: internal.memberId });
      await new Promise((resolve) => setTimeout(resolve, t.config.accessCacheSeconds * 1000 + 100));
      const later = await preview();
      expect(Object.keys(claimsOf(later.json().embedUrl)).sort()).toEqual(["exp", "iat", "jti", "sub"]);
      const violationsBefore = sigma.violations.length;
      expect((await fetch(later.json().embedUrl)).status).toBe(200);
      expect(sigma.violations).toHaveLength(violationsBefore);
      expect(sigma.memberByEmail(person.email)).toMatchObject({ userKind: "internal", memberType: "Admin" });
    },
  );

  it(
    "fetches a new token after a 401, and adopts what a create refused with 409 (no change fails for good)",
    { timeout: 60_000 },
    async () => {
      sigma.revokeTokens();
      sigma.conflictOnNextCreate("createTeam");
      sigma.failNext("createMember", { status: 409, afterEffect: true });
      const add = await call("POST", "/api/admin/addworkbook", {
        workbook_name: `Income-and-Fees-${INCOME.workbookUrlId}`,
        team_name: "Income Clients",
      });
      expect(add.statusCode).toBe(201);
      const client = await call("POST", "/api/admin/addclient", {
        clientId: "CL-NOOR",
        firstName: "Noor",
        lastName: "Conflict",
        email: "noor.conflict@example.com",
        password: "meadow-lantern-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [add.json().data.id],
      });
      expect(client.statusCode).toBe(201);
      await deliverAll();
      expect(await failedRows()).toEqual([]);
      expect(sigma.duplicateEmails()).toEqual([]);
      expect(teamNamesOf("noor.conflict@example.com")).toEqual(["Income Clients"]);
      expect(sigma.grants().some((g) => g.teamId === sigma.teamByName("Income Clients")!.teamId)).toBe(true);
    },
  );

  it(
    "a client's delegate is provisioned like any viewer and opens the shared workbook as themselves (issue 23)",
    { timeout: 60_000 },
    async () => {
      const owner = {
        cookie: await t.sessionCookie("olivia.shared@example.com", "6-ledger-harbor-passphrase"),
        origin: ORIGIN,
      };
      const invited = await t.app.inject({
        method: "POST",
        url: "/api/me/delegates",
        headers: owner,
        payload: { email: "casey.cpa@example.com", name: "Casey Moreno" },
      });
      expect(invited.statusCode, invited.body).toBe(201);
      // The link as mailed (no SMTP here: the mail is written to DATA_DIR/outbox).
      const outbox = path.join(t.config.dataDir, "outbox");
      const mails = (await readdir(outbox)).sort();
      const mail = (await readFile(path.join(outbox, mails.at(-1)!), "utf8"))
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "=");
      const token = mail.match(/invitation\?token=([A-Za-z0-9_-]{43})/)![1]!;
      const accepted = await t.app.inject({
        method: "POST",
        url: "/api/invitations/accept",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        payload: { token, password: "orchard-lantern-passphrase" },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const ownerBefore = structuredClone(sigma.memberByEmail("olivia.shared@example.com")!);
      await deliverAll();
      expect(await failedRows()).toEqual([]);
      expect(sigma.duplicateEmails()).toEqual([]);
      expect(sigma.memberByEmail("casey.cpa@example.com")).toMatchObject({
        userKind: "embed",
        firstName: "Casey",
      });
      expect(teamNamesOf("casey.cpa@example.com")).toEqual(teamNamesOf("olivia.shared@example.com"));

      const cookie = await t.sessionCookie("casey.cpa@example.com", "orchard-lantern-passphrase");
      const res = await t.app.inject({
        method: "POST",
        url: "/api/sigma/provision-and-embed",
        headers: { cookie, origin: ORIGIN },
        payload: { workbookId: `Portfolio-Overview-${PORTFOLIO.workbookUrlId}`, clientId: people.olivia },
      });
      expect(res.statusCode, res.body).toBe(200);
      const url = res.json().embedUrl as string;
      expect(claimsOf(url)).toMatchObject({
        sub: "casey.cpa@example.com",
        account_type: "View",
        user_attributes: { client_id: "", client_ids: "CL-OLIVIA" },
      });
      expect((await fetch(url)).status).toBe(200);
      expect(sigma.memberByEmail("casey.cpa@example.com")!.userAttributes).toEqual({
        client_id: "",
        client_ids: "CL-OLIVIA",
      });
      // The client's own Sigma user is untouched by her delegate's view.
      const ownerAfter = sigma.memberByEmail("olivia.shared@example.com")!;
      expect(ownerAfter.userAttributes).toEqual(ownerBefore.userAttributes);
      expect(ownerAfter.memberType).toBe(ownerBefore.memberType);
      expect(sigma.violations).toEqual([]);
    },
  );
});
