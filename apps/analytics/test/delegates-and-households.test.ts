/**
 * Row security for a client's circle (decision 020): a delegate's embed is the delegate's own identity with
 * `client_ids` = the one client they view, and a household's combined view is `client_ids` = every client of
 * the household. Neither may show anyone else's rows, and neither may put the viewer's name on a client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ZSigmaMemberSchema, type TEmbedUserClaims } from "@portal/sigma";
import type { EmbedBoot, PageData } from "../src/embed/boot.ts";
import {
  CLIENT_A,
  CLIENT_B,
  INCOME,
  PORTFOLIO,
  TAX,
  TEST_AS_OF,
  clientUser,
  mint,
  restCaller,
  startTestServer,
  type TestServer,
} from "./helpers.ts";

let t: TestServer;
let call: ReturnType<typeof restCaller>;
beforeAll(async () => {
  t = await startTestServer();
  call = restCaller(() => t.server);
});
afterAll(async () => {
  await t?.stop();
});

const A = CLIENT_A!.clientId;
const B = CLIENT_B!.clientId;
const ALL_TEAMS = [PORTFOLIO!, TAX!, INCOME!].map((w) => w.teamName);
const WORKBOOKS = [PORTFOLIO!, TAX!, INCOME!].map((w) => w.workbookName);

type TBoot = EmbedBoot & { initialData: PageData };

/** A person viewing through `client_ids`: their own email and names, account type View. */
function viewer(
  email: string,
  firstName: string,
  lastName: string,
  clientIds: readonly string[],
): TEmbedUserClaims {
  return {
    email,
    firstName,
    lastName,
    accountType: "View",
    teams: ALL_TEAMS,
    userAttributes: { client_ids: clientIds.join(",") },
  };
}

/** Opens a workbook with a freshly minted URL; the page's boot data carries its first page's results. */
async function open(workbookName: string, user: TEmbedUserClaims): Promise<TBoot> {
  const { url } = await mint(t.server, workbookName, user);
  const res = await fetch(url);
  const html = await res.text();
  expect(res.status, html.slice(0, 300)).toBe(200);
  const boot = /id="embed-boot">(.*?)<\/script>/s.exec(html)?.[1];
  const parsed = JSON.parse(boot!) as TBoot;
  expect(parsed.initialData, "the page carries its first results").toBeDefined();
  return parsed;
}

/** The page's own data request, with control values as the page (or a tampered URL) would send them. */
async function query(boot: TBoot, variables: Record<string, string>): Promise<PageData> {
  const res = await fetch(`${t.server.url}${boot.queryUrl}`, {
    method: "POST",
    headers: { authorization: `Bearer ${boot.sessionToken}`, "content-type": "application/json" },
    body: JSON.stringify({ variables }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as PageData;
}

const control = (data: PageData, id: string) => data.controls.find((c) => c.id === id);
const accountsOf = (data: PageData) =>
  (control(data, "Account")?.options ?? []).map((o) => o.value).filter((v) => v !== "all");
/** Every client id the answer mentions (in labels, account ids, anywhere). */
const clientIdsIn = (data: PageData) =>
  [...new Set(JSON.stringify(data).match(/CL-\d{4}(?!\d)/g) ?? [])].sort();

const clientRow = async (clientId: string) =>
  (
    await t.db.query<{ first_name: string; last_name: string }>(
      "select first_name, last_name from demo.clients where client_id = $1",
      [clientId],
    )
  ).rows[0];

/** Read as the database owner, outside row security: what the clients' own figures are. */
const owner = {
  accounts: async (ids: readonly string[]) =>
    (
      await t.db.query<{ account_id: string }>(
        "select account_id from demo.accounts where client_id = any($1::text[]) order by account_id",
        [[...ids]],
      )
    ).rows.map((r) => r.account_id),
  value: async (ids: readonly string[], account = "all") => {
    let total = 0;
    for (const id of ids) {
      const res = await t.db.query<{ v: number }>(
        `select market_value::float8 as v from demo.daily_values($1, $2,
           (select max(d) from demo.trading_days where d <= $3::date),
           (select max(d) from demo.trading_days where d <= $3::date))`,
        [id, account, TEST_AS_OF],
      );
      total += res.rows[0]?.v ?? 0;
    }
    return total;
  },
  income: async (ids: readonly string[], start: string, end: string) =>
    (
      await t.db.query<{ v: number }>(
        `select coalesce(sum(amount), 0)::float8 as v from demo.transactions
          where type in ('dividend', 'interest') and client_id = any($1::text[])
            and trade_date between $2::date and $3::date`,
        [[...ids], start, end],
      )
    ).rows[0]!.v,
  realizedLots: async (ids: readonly string[], start: string, end: string) =>
    (
      await t.db.query<{ n: number }>(
        `select count(*)::int as n from demo.lot_disposals d join demo.accounts a using (account_id)
          where a.taxable and d.client_id = any($1::text[]) and d.sold_date between $2::date and $3::date`,
        [[...ids], start, end],
      )
    ).rows[0]!.n,
};

const YEAR_START = `${TEST_AS_OF.slice(0, 4)}-01-01`;
const PERIOD = `min:${YEAR_START},max:${TEST_AS_OF}`;

describe("a delegate views exactly the client who invited them", () => {
  const delegate = viewer("jordan.hale@example.com", "Jordan", "Hale", [A]);

  it("shows only that client's rows and accounts, in every workbook, under the client's own name", async () => {
    const name = await clientRow(A);
    expect(name).toEqual({ first_name: CLIENT_A!.firstName, last_name: CLIENT_A!.lastName });
    for (const workbookName of WORKBOOKS) {
      const boot = await open(workbookName, delegate);
      const data = boot.initialData;
      const client = control(data, "Client")!;
      expect(client.options, workbookName).toEqual([
        { value: A, label: `${name!.first_name} ${name!.last_name} (${A})` },
      ]);
      expect(client.hidden, workbookName).toBe(true);
      expect(clientIdsIn(data), workbookName).toEqual([A]);
      if (control(data, "Account")) expect(accountsOf(data), workbookName).toEqual(await owner.accounts([A]));
      // The page is the delegate's: their own name as the viewer, never the client's.
      expect(boot.user).toEqual({ name: "Jordan Hale", email: delegate.email });
    }
    const portfolio = (await open(PORTFOLIO!.workbookName, delegate)).initialData;
    expect(portfolio.elements["total-value"]!.rows[0]!.value).toBeCloseTo(await owner.value([A]), 2);
    expect(await clientRow(A)).toEqual(name);
    // The delegate is their own member, a View account with the viewed client as its attribute.
    const res = await call("GET", `/v2/members?email=${encodeURIComponent(delegate.email)}`);
    expect(z.array(ZSigmaMemberSchema).parse(res.body)[0]).toMatchObject({
      email: delegate.email,
      firstName: "Jordan",
      lastName: "Hale",
      memberType: "View",
    });
  });

  it("ignores control values that name another client or another client's account", async () => {
    const boot = await open(PORTFOLIO!.workbookName, delegate);
    const tampered = await query(boot, { Client: B, Account: `${B}-01` });
    expect(tampered.variables["Client"]).toBe(A);
    expect(tampered.variables["Account"]).toBe("all");
    expect(clientIdsIn(tampered)).toEqual([A]);
    expect(tampered.elements["total-value"]!.rows[0]!.value).toBeCloseTo(await owner.value([A]), 2);
  });

  it("never renames the client after the delegate; the client's own embed still names them", async () => {
    await open(PORTFOLIO!.workbookName, delegate);
    expect(await clientRow(A)).toEqual({ first_name: CLIENT_A!.firstName, last_name: CLIENT_A!.lastName });
    // The client's own embed (`client_id`) carries the name the portal holds: a new surname is shown.
    const own = { ...clientUser(CLIENT_A!, ALL_TEAMS), lastName: "Marsh" };
    const ownPage = await open(PORTFOLIO!.workbookName, own);
    expect(await clientRow(A)).toEqual({ first_name: CLIENT_A!.firstName, last_name: "Marsh" });
    expect(control(ownPage.initialData, "Client")!.options[0]!.label).toBe(
      `${CLIENT_A!.firstName} Marsh (${A})`,
    );
    // The delegate's next page shows the client's name, not theirs, and changes nothing.
    const again = await open(PORTFOLIO!.workbookName, delegate);
    expect(control(again.initialData, "Client")!.options[0]!.label).toBe(
      `${CLIENT_A!.firstName} Marsh (${A})`,
    );
    expect(JSON.stringify(again.initialData)).not.toContain("Hale");
    expect(await clientRow(A)).toEqual({ first_name: CLIENT_A!.firstName, last_name: "Marsh" });
    await open(PORTFOLIO!.workbookName, clientUser(CLIENT_A!, ALL_TEAMS));
    expect(await clientRow(A)).toEqual({ first_name: CLIENT_A!.firstName, last_name: CLIENT_A!.lastName });
  });

  it("a client who is also another client's delegate sees only the viewed client there, and only their own at home", async () => {
    const marcus = CLIENT_B!;
    const asDelegate = viewer(marcus.email, marcus.firstName, marcus.lastName, [A]);
    const there = (await open(PORTFOLIO!.workbookName, asDelegate)).initialData;
    expect(clientIdsIn(there)).toEqual([A]);
    expect(accountsOf(there)).toEqual(await owner.accounts([A]));
    expect((await clientRow(A))?.last_name).not.toBe(marcus.lastName);
    const home = (await open(PORTFOLIO!.workbookName, clientUser(marcus, ALL_TEAMS))).initialData;
    expect(clientIdsIn(home)).toEqual([B]);
    expect(accountsOf(home)).toEqual(await owner.accounts([B]));
    expect(await clientRow(B)).toEqual({ first_name: marcus.firstName, last_name: marcus.lastName });
  });

  it("a delegate of a client the demo data lacks gets that client's own portfolio, not the delegate's name", async () => {
    expect(await clientRow("CL-7001")).toBeUndefined();
    const data = (
      await open(PORTFOLIO!.workbookName, viewer("sam.ortiz@example.com", "Sam", "Ortiz", ["CL-7001"]))
    ).initialData;
    expect(clientIdsIn(data)).toEqual(["CL-7001"]);
    expect(accountsOf(data).length).toBeGreaterThan(0);
    expect(accountsOf(data)).toEqual(await owner.accounts(["CL-7001"]));
    const row = await clientRow("CL-7001");
    expect(row).toBeDefined();
    expect(`${row!.first_name} ${row!.last_name}`).not.toBe("Sam Ortiz");
  });
});

describe("a household's combined view shows its clients together", () => {
  const households: { member: TEmbedUserClaims; ids: string[] }[] = [
    { member: viewer(CLIENT_A!.email, CLIENT_A!.firstName, CLIENT_A!.lastName, [A, B]), ids: [A, B] },
    {
      member: viewer("elena.ward@example.com", "Elena", "Ward", ["CL-1003", "CL-1004", "CL-1005"]),
      ids: ["CL-1003", "CL-1004", "CL-1005"],
    },
  ];

  it.each(households)(
    "lists every account of $ids in every workbook, and no other client's rows",
    async ({ member, ids }) => {
      const names = await Promise.all(ids.map(clientRow));
      for (const workbookName of WORKBOOKS) {
        const data = (await open(workbookName, member)).initialData;
        const client = control(data, "Client")!;
        // The combined view is the default; each client can still be chosen alone.
        expect(client.value, workbookName).toBe("all");
        expect(
          client.options.map((o) => o.value),
          workbookName,
        ).toEqual(["all", ...ids]);
        expect(clientIdsIn(data), workbookName).toEqual(ids);
        if (control(data, "Account"))
          expect(accountsOf(data), workbookName).toEqual(await owner.accounts(ids));
      }
      // Nobody's name changes: the member's own names never land on a client of the household.
      expect(await Promise.all(ids.map(clientRow))).toEqual(names);
    },
  );

  it.each(households)(
    "adds up the figures of $ids, and of one account when one is chosen",
    async ({ member, ids }) => {
      const portfolio = await open(PORTFOLIO!.workbookName, member);
      const total = portfolio.initialData.elements["total-value"]!.rows[0]!.value as number;
      expect(total).toBeCloseTo(await owner.value(ids), 2);
      expect(portfolio.initialData.elements["holdings"]!.rows.length).toBeGreaterThan(0);

      const last = ids.at(-1)!;
      const account = (await owner.accounts([last]))[0]!;
      const one = await query(portfolio, { Account: account });
      expect(one.variables["Client"]).toBe("all");
      expect(one.variables["Account"]).toBe(account);
      expect(one.elements["total-value"]!.rows[0]!.value).toBeCloseTo(await owner.value([last], account), 2);
      // An account outside the household is not an option: the view stays on all of its accounts.
      const outside = await query(portfolio, { Account: "CL-1006-01" });
      expect(outside.variables["Account"]).toBe("all");
      expect(clientIdsIn(outside)).toEqual(ids);

      const income = await query(await open(INCOME!.workbookName, member), { Period: PERIOD });
      expect(income.elements["income-total"]!.rows[0]!.income).toBeCloseTo(
        await owner.income(ids, YEAR_START, TEST_AS_OF),
        2,
      );
      const tax = (await open(TAX!.workbookName, member)).initialData;
      expect(tax.elements["realized-lots"]!.rows.length).toBe(
        await owner.realizedLots(ids, YEAR_START, TEST_AS_OF),
      );
    },
  );
});
