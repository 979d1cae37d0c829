import { createHash, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ZSigmaMemberSchema, ZSigmaTeamMemberSchema, ZSigmaTeamSchema, pageOf } from "@portal/sigma";
import type { EmbedBoot, PageData } from "../src/embed/boot.ts";
import { DIST_DIR } from "../src/frontend.ts";
import { acceptsEncoding } from "../src/server.ts";
import {
  CLIENT_A,
  CLIENT_B,
  EMBED_CLIENT,
  INCOME,
  PORTFOLIO,
  TAX,
  clientUser,
  employeeUser,
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

async function memberByEmail(email: string) {
  const res = await call("GET", `/v2/members?email=${encodeURIComponent(email)}&includeArchived=true`);
  return z.array(ZSigmaMemberSchema).parse(res.body)[0];
}
afterAll(async () => {
  await t?.stop();
});

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function claims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: CLIENT_A!.email,
    jti: randomUUID(),
    iat: now,
    exp: now + 300,
    account_type: "View",
    teams: [PORTFOLIO!.teamName],
    user_attributes: { client_id: CLIENT_A!.clientId },
    ...overrides,
  };
}

async function sign(
  payload: Record<string, unknown>,
  secret = EMBED_CLIENT.secret,
  kid = EMBED_CLIENT.clientId,
) {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", kid })
    .sign(new TextEncoder().encode(secret));
}

function urlFor(token: string, workbookName = PORTFOLIO!.workbookName) {
  return `${t.server.embedBaseUrl}/workbook/${workbookName}?:jwt=${encodeURIComponent(token)}&:embed=true`;
}

async function open(url: string) {
  const res = await fetch(url);
  const html = await res.text();
  const code = /<p><code>(E[A-Z]+)<\/code><\/p>/.exec(html)?.[1];
  return { res, html, code };
}

describe("embed URL verification", () => {
  it("opens a freshly minted URL once; the same URL fails with EINVAL, also after a restart", async () => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), {
      ui: { theme: "Dark" },
    });
    const first = await open(url);
    expect(first.res.status).toBe(200);
    expect(first.code).toBeUndefined();
    expect(first.html).toContain('id="embed-boot"');
    expect(first.html).toContain('data-theme="dark"');
    expect(first.res.headers.get("content-security-policy")).toContain(
      "frame-ancestors http://127.0.0.1:3000",
    );
    expect(first.res.headers.get("cache-control")).toBe("no-store");
    expect(first.html).not.toContain("select ");

    const second = await open(url);
    expect(second.res.status).toBe(401);
    expect(second.code).toBe("EINVAL");
    expect(second.html).toContain("already been used");
    expect(second.html).toContain('"type":"workbook:error","code":"EINVAL"');

    const { url: another } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!));
    await t.restart();
    // The jti log is durable: the URL consumed before the restart stays consumed...
    const rebooted = `${t.server.url}${new URL(url).pathname}${new URL(url).search}`;
    expect((await open(rebooted)).code).toBe("EINVAL");
    // ...and an unused one minted before the restart still works.
    const fresh = `${t.server.url}${new URL(another).pathname}${new URL(another).search}`;
    expect((await open(fresh)).res.status).toBe(200);
  });

  it("rejects expired, wrongly signed, alg none, unknown kid, too long and incomplete tokens with EINVAL", async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string][] = [
      ["expired", await sign(claims({ iat: now - 900, exp: now - 600 }))],
      ["wrong secret", await sign(claims(), "x".repeat(64))],
      ["unknown kid", await sign(claims(), EMBED_CLIENT.secret, "someone-else")],
      ["alg none", `${b64url({ alg: "none", kid: EMBED_CLIENT.clientId })}.${b64url(claims())}.`],
      ["longer than 30 days", await sign(claims({ exp: now + 31 * 24 * 3600 }))],
      ["no jti", await sign({ ...claims(), jti: undefined })],
      ["issued in the future", await sign(claims({ iat: now + 3600, exp: now + 3900 }))],
      ["underscore in sub", await sign(claims({ sub: "olivia_bennett@example.com" }))],
      ["garbage", "not-a-token"],
    ];
    for (const [name, token] of cases) {
      const r = await open(urlFor(token));
      expect(r.code, name).toBe("EINVAL");
      expect(r.res.status, name).toBe(401);
    }
    const expired = await open(urlFor(cases[0]![1]));
    expect(expired.html).toContain("expired");
    const missing = await open(`${t.server.embedBaseUrl}/workbook/${PORTFOLIO!.workbookName}?:embed=true`);
    expect(missing.code).toBe("EINVAL");
  });

  it("accepts a token expired by less than the allowed clock skew", async () => {
    const now = Math.floor(Date.now() / 1000);
    const skewed = await open(urlFor(await sign(claims({ iat: now - 330, exp: now - 30 }))));
    expect(skewed.res.status).toBe(200);
  });

  it("answers EACCES for a workbook not shared with the user's teams and ENOENT for an unknown one", async () => {
    const onlyPortfolio = clientUser(CLIENT_B!, [PORTFOLIO!.teamName]);
    const denied = await open((await mint(t.server, TAX!.workbookName, onlyPortfolio)).url);
    expect(denied.code).toBe("EACCES");
    expect(denied.res.status).toBe(403);
    expect(denied.html).toContain('"code":"EACCES"');

    const missing = await open(
      (await mint(t.server, "Nothing-Here-AAAAAAAAAAAAAAAAAAAAAA", onlyPortfolio)).url,
    );
    expect(missing.code).toBe("ENOENT");
  });

  it("creates the embed user from the claims and replaces their teams on every embed", async () => {
    const email = "new.person@example.com";
    const user = {
      ...clientUser(CLIENT_A!, [PORTFOLIO!.teamName, INCOME!.teamName]),
      email,
      firstName: "New",
      lastName: "Person",
    };
    expect((await open((await mint(t.server, PORTFOLIO!.workbookName, user)).url)).res.status).toBe(200);
    const member = await memberByEmail(email);
    expect(member).toMatchObject({
      firstName: "New",
      lastName: "Person",
      memberType: "View",
      userKind: "embed",
    });
    const teamsOf = async () => {
      const teams = z.array(ZSigmaTeamSchema).parse((await call("GET", "/v2/teams")).body);
      const out: string[] = [];
      for (const team of teams) {
        const members = pageOf(ZSigmaTeamMemberSchema).parse(
          (await call("GET", `/v2/teams/${team.teamId}/members`)).body,
        );
        if (members.entries.some((m) => m.userId === member!.memberId)) out.push(team.name);
      }
      return out.sort();
    };
    expect(await teamsOf()).toEqual([INCOME!.teamName, PORTFOLIO!.teamName].sort());

    // The next embed claims only the tax team: the portfolio workbook is no longer theirs.
    const taxOnly = { ...user, teams: [TAX!.teamName], accountType: "Analyze" };
    expect((await open((await mint(t.server, TAX!.workbookName, taxOnly)).url)).res.status).toBe(200);
    expect(await teamsOf()).toEqual([TAX!.teamName]);
    expect((await memberByEmail(email))?.memberType).toBe("Analyze");
    expect((await open((await mint(t.server, PORTFOLIO!.workbookName, taxOnly)).url)).code).toBe("EACCES");
  });

  it("answers ENOENT for a deactivated (archived) member, whose open sessions end", async () => {
    const user = { ...clientUser(CLIENT_B!), email: "leaving@example.com" };
    const page = await open((await mint(t.server, PORTFOLIO!.workbookName, user)).url);
    const sessionToken = (
      JSON.parse(/id="embed-boot">(.*?)<\/script>/s.exec(page.html)![1]!) as { sessionToken: string }
    ).sessionToken;
    const query = () =>
      fetch(`${t.server.embedBaseUrl}/api/embed/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${sessionToken}`, "content-type": "application/json" },
        body: JSON.stringify({ variables: {} }),
      });
    expect((await query()).status).toBe(200);
    const member = await memberByEmail(user.email);
    expect((await call("DELETE", `/v2/members/${member!.memberId}`)).status).toBe(200);
    // The page's session has ended: its next data request is answered with Sigma's code-less message.
    const ended = await query();
    expect(ended.status).toBe(401);
    expect(await ended.json()).toEqual({ message: "Session expired. Reload the page." });
    const denied = await open((await mint(t.server, PORTFOLIO!.workbookName, user)).url);
    expect(denied.code).toBe("ENOENT");
    expect(denied.res.status).toBe(404);
    expect(denied.html).toContain('"type":"workbook:error","code":"ENOENT"');
    // Brought back (PATCH isArchived false), the same person opens the workbook again.
    expect((await call("PATCH", `/v2/members/${member!.memberId}`, { isArchived: false })).status).toBe(200);
    expect((await open((await mint(t.server, PORTFOLIO!.workbookName, user)).url)).res.status).toBe(200);
  });

  it("answers the data endpoint without a live session with the code-less session-expired message", async () => {
    const res = await fetch(`${t.server.embedBaseUrl}/api/embed/query`, {
      method: "POST",
      headers: {
        authorization: "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Session expired. Reload the page." });
  });
});

describe("charts drawn on the server", () => {
  const bootOf = (html: string) =>
    JSON.parse(/id="embed-boot">(.*?)<\/script>/s.exec(html)![1]!) as EmbedBoot & { initialData: PageData };
  const post = (token: string, path: string, body: unknown) =>
    fetch(`${t.server.embedBaseUrl}/api/embed/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("draws the page's charts at the sizes the page asks for, only the elements asked for", async () => {
    const page = await open((await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!))).url);
    const boot = bootOf(page.html);
    // A client that runs no script reports no sizes: the page comes at once, its charts to be asked for.
    expect(boot.initialData.charts).toEqual({});
    expect(Object.keys(boot.initialData.elements)).toContain("holdings");
    // The page's layout script and its report address, allowed by the page's CSP.
    const layout = /<script data-url="([^"]+)" data-token="([^"]+)">([^<]+)<\/script>/.exec(page.html);
    expect(layout?.[1]).toBe(`/${t.server.config.orgSlug}/api/embed/layout`);
    expect(layout?.[2]).toBe(boot.sessionToken);
    const hash = createHash("sha256").update(layout![3]!).digest("base64");
    expect(page.res.headers.get("content-security-policy")).toContain(`script-src 'self' 'sha256-${hash}'`);

    const res = await post(boot.sessionToken, "query", {
      variables: boot.initialData.variables,
      sizes: { growth: { width: 640, height: 300 }, allocation: { width: 400, height: 320 } },
      elements: ["growth", "allocation"],
      theme: "dark",
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as PageData;
    expect(Object.keys(answer.elements).sort()).toEqual(["allocation", "growth"]);
    expect(Object.keys(answer.charts).sort()).toEqual(["allocation", "growth"]);
    const growth = answer.charts.growth!;
    if (!("svg" in growth)) throw new Error(growth.error);
    expect(growth.svg).toMatch(/^<svg width="640" height="300"/);
    expect(growth.svg).toContain("#60a5fa"); // the dark theme's first colour
    expect(growth.description).toContain("Growth of $100 vs benchmark");

    // Sizes outside what the page can have are refused, as is a report without a session.
    expect(
      (await post(boot.sessionToken, "query", { sizes: { growth: { width: 5, height: 300 } } })).status,
    ).toBe(400);
    expect((await post(boot.sessionToken, "layout", { sizes: { growth: { width: 640 } } })).status).toBe(400);
    const noSession = await fetch(`${t.server.embedBaseUrl}/api/embed/layout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sizes: {} }),
    });
    expect(noSession.status).toBe(400);
    // A report for a page that waits for nothing changes nothing.
    expect(
      (await post(boot.sessionToken, "layout", { sizes: { growth: { width: 640, height: 300 } } })).status,
    ).toBe(204);
  });

  it("draws the first page's charts into the page when the browser reports their sizes in time", async () => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!));
    // As a browser opening a frame: the page waits for the layout report, which the test sends itself once
    // it has the page's head (and the session token in it).
    const res = await fetch(url, { headers: { "sec-fetch-dest": "iframe", "accept-encoding": "identity" } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let html = "";
    let reported = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      html += decoder.decode(value, { stream: true });
      const token = /data-token="([^"]+)"/.exec(html)?.[1];
      if (token && !reported) {
        reported = true;
        const sizes = { "value-history": { width: 900, height: 280 }, growth: { width: 500, height: 300 } };
        expect((await post(token, "layout", { sizes })).status).toBe(204);
      }
    }
    expect(reported).toBe(true);
    const { charts } = bootOf(html).initialData;
    expect(Object.keys(charts).sort()).toEqual(["growth", "value-history"]);
    expect(charts["value-history"]).toMatchObject({ width: 900, height: 280 });
    expect((charts["value-history"] as { svg: string }).svg).toMatch(/^<svg width="900" height="280"/);
  });
});

describe("compression", () => {
  it("sends the page's built script precompressed as the browser accepts, and the page itself compressed", async () => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!));
    const page = await fetch(url, { headers: { "accept-encoding": "br" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    // The page is streamed compressed: its head at once, the data when ready (fetch decompresses).
    expect(page.headers.get("content-encoding")).toBe("br");
    expect(page.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(html).toContain('id="embed-boot"');
    const gzipped = await fetch((await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!))).url, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(await gzipped.text()).toContain('id="embed-boot"');
    const raw = await readFile(path.join(DIST_DIR, script!.slice(1)), "utf8");
    for (const encoding of ["br", "gzip"]) {
      const res = await fetch(`${t.server.url}${script}`, { headers: { "accept-encoding": encoding } });
      expect(res.headers.get("content-encoding")).toBe(encoding);
      expect(res.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(await res.text()).toBe(raw); // fetch decompresses
    }
    const plain = await fetch(`${t.server.url}${script}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(raw);
  });

  it("reads Accept-Encoding as browsers and proxies write it", () => {
    expect(acceptsEncoding("gzip, deflate, br, zstd", "br")).toBe(true);
    expect(acceptsEncoding("gzip;q=1.0, br;q=0", "br")).toBe(false);
    expect(acceptsEncoding("*", "gzip")).toBe(true);
    expect(acceptsEncoding("identity", "gzip")).toBe(false);
    expect(acceptsEncoding(undefined, "br")).toBe(false);
  });
});

describe("the portal is the system of record for people", () => {
  const person = (clientId: string, firstName: string, lastName: string) => ({
    email: `${firstName}.${lastName}@example.com`.toLowerCase(),
    firstName,
    lastName,
    accountType: "View",
    teams: [PORTFOLIO!.teamName],
    userAttributes: { client_id: clientId },
  });
  const open1 = async (user: ReturnType<typeof person>) => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, user);
    const res = await fetch(url);
    expect(res.status).toBe(200);
  };
  const clientRow = async (clientId: string) =>
    (
      await t.db.query<{ first_name: string; last_name: string }>(
        "select first_name, last_name from demo.clients where client_id = $1",
        [clientId],
      )
    ).rows;
  const figures = async (clientId: string) =>
    (
      await t.db.query<{ n: number; total: number }>(
        "select count(*)::int as n, coalesce(sum(amount), 0)::float8 as total from demo.transactions where client_id = $1",
        [clientId],
      )
    ).rows[0]!;

  it("a client whose id is also a demo id is shown under the portal's name", async () => {
    expect((await clientRow("CL-1003"))[0]?.first_name).not.toBe("Hannah");
    await open1(person("CL-1003", "Hannah", "Whitfield"));
    expect(await clientRow("CL-1003")).toEqual([{ first_name: "Hannah", last_name: "Whitfield" }]);
  });

  it("a client id the demo data does not have gets its own deterministic portfolio", async () => {
    expect(await clientRow("CL-7777")).toEqual([]);
    await open1(person("CL-7777", "Noah", "Quill"));
    expect(await clientRow("CL-7777")).toEqual([{ first_name: "Noah", last_name: "Quill" }]);
    const first = await figures("CL-7777");
    expect(first.n).toBeGreaterThan(10);
    // Nobody else's: its accounts are its own.
    const accounts = await t.db.query<{ account_id: string }>(
      "select account_id from demo.accounts where client_id = 'CL-7777'",
    );
    expect(accounts.rows.every((a) => a.account_id.startsWith("CL-7777-"))).toBe(true);

    // Made again from scratch (a new data set): the same figures.
    for (const table of ["demo.transactions", "demo.accounts", "demo.positions", "demo.clients"]) {
      await t.db.query(`delete from ${table} where client_id = 'CL-7777'`);
    }
    await open1(person("CL-7777", "Noah", "Quill"));
    expect(await figures("CL-7777")).toEqual(first);
  });

  it("a client renamed in the portal sees the new name on their next page, though the page was kept", async () => {
    const page = async (lastName: string) => {
      const { url } = await mint(t.server, PORTFOLIO!.workbookName, person("CL-1003", "Hannah", lastName));
      const res = await fetch(url);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await page("Whitfield")).toContain("Hannah Whitfield (CL-1003)");
    expect(await page("Whitfield")).toContain("Hannah Whitfield (CL-1003)");
    const renamed = await page("Brightwater");
    expect(renamed).toContain("Hannah Brightwater (CL-1003)");
    expect(renamed).not.toContain("Whitfield");
    await page("Whitfield");
  });

  it("an advisor's clients the demo data lacks get theirs too, without taking anyone's name", async () => {
    const { url } = await mint(t.server, PORTFOLIO!.workbookName, {
      ...employeeUser(),
      teams: [PORTFOLIO!.teamName],
      userAttributes: { client_ids: "CL-1003,CL-8888" },
    });
    expect((await fetch(url)).status).toBe(200);
    expect((await figures("CL-8888")).n).toBeGreaterThan(10);
    // The advisor's own name never becomes a client's.
    expect(await clientRow("CL-1003")).toEqual([{ first_name: "Hannah", last_name: "Whitfield" }]);
    expect((await clientRow("CL-8888"))[0]?.first_name).not.toBe(employeeUser().firstName);
  });
});
