/**
 * What Sigma refuses and how it reads an embed URL, as its published material describes it: `ver`, the
 * `:` parameters, teams that must exist, internal users, `:theme`, and control values in the URL.
 */
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ZSigmaGrantSchema,
  ZSigmaMemberSchema,
  ZSigmaTeamSchema,
  ZSigmaUserAttributeSchema,
  ZSigmaWorkbookSchema,
  pageOf,
} from "@portal/sigma";
import type { EmbedBoot, PageData } from "../src/embed/boot.ts";
import {
  CLIENT_A,
  CONTROL_VALUES_WORKBOOK,
  DEMO_EMPLOYEE,
  EMBED_CLIENT,
  PORTFOLIO,
  TAX,
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

const INTERNAL_CLAIMS_MESSAGE =
  "You don't have permission to access this page. Cannot update account type for internal users.";

async function sign(payload: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ jti: randomUUID(), iat: now, exp: now + 300, ...payload })
    .setProtectedHeader({ alg: "HS256", kid: EMBED_CLIENT.clientId })
    .sign(new TextEncoder().encode(EMBED_CLIENT.secret));
}

function urlFor(token: string, workbookName: string = PORTFOLIO!.workbookName, extra = "") {
  return `${t.server.embedBaseUrl}/workbook/${workbookName}?:jwt=${token}&:embed=true${extra}`;
}

async function open(url: string) {
  const res = await fetch(url);
  const html = await res.text();
  const code = /<p><code>([A-Z]+)<\/code><\/p>/.exec(html)?.[1];
  const boot = /id="embed-boot">(.*?)<\/script>/s.exec(html)?.[1];
  return {
    res,
    html,
    code,
    boot: boot ? (JSON.parse(boot) as EmbedBoot & { initialData: PageData }) : undefined,
  };
}

const embedClaims = (email: string, teams: string[] = [PORTFOLIO!.teamName]) => ({
  sub: email,
  account_type: "View",
  teams,
  user_attributes: { client_id: CLIENT_A!.clientId },
});

async function memberByEmail(email: string) {
  const res = await call("GET", `/v2/members?email=${encodeURIComponent(email)}&includeArchived=true`);
  return z.array(ZSigmaMemberSchema).parse(res.body)[0];
}

async function teamIdOf(name: string) {
  const res = await call("GET", `/v2/teams?name=${encodeURIComponent(name)}`);
  return z.array(ZSigmaTeamSchema).parse(res.body)[0]?.teamId;
}

async function workbookIdOf(workbookName: string) {
  const page = pageOf(ZSigmaWorkbookSchema).parse((await call("GET", "/v2/workbooks")).body);
  return page.entries.find((w) => workbookName.endsWith(`-${w.workbookUrlId}`))!.workbookId;
}

describe("what Sigma refuses", () => {
  it("refuses a ver other than 1.0 or 1.1 with EINVAL", async () => {
    const sub = "versions@example.com";
    for (const ver of ["2.0", "1", "1.10"]) {
      const r = await open(urlFor(await sign({ ...embedClaims(sub), ver })));
      expect(r.code, ver).toBe("EINVAL");
      expect(r.res.status, ver).toBe(401);
    }
    expect((await open(urlFor(await sign({ ...embedClaims(sub), ver: "1.0" })))).res.status).toBe(200);
    const v11 = await sign({ ...embedClaims(sub), ver: "1.1", aud: "sigmacomputing" });
    expect((await open(urlFor(v11))).res.status).toBe(200);
    expect((await open(urlFor(await sign({ ...embedClaims(sub), ver: "1.1" })))).code).toBe("EINVAL");
  });

  it("refuses a : parameter Sigma does not have with EINVAL; Sigma's interface parameters and :accent_color open", async () => {
    const sub = "parameters@example.com";
    for (const extra of [
      "&:nodeId=overview",
      "&:hide_title=true",
      "&:view_id=1",
      "&%3Adisable_auto_refresh=true",
    ]) {
      const r = await open(urlFor(await sign(embedClaims(sub)), PORTFOLIO!.workbookName, extra));
      expect(r.code, extra).toBe("EINVAL");
      expect(r.html, extra).toContain('"type":"workbook:error","code":"EINVAL"');
    }
    const allowed =
      "&:hide_bookmarks=true&:hide_explore_toggle=true&:hide_folder_navigation=true&:hide_menu=true" +
      "&:hide_tooltip=true&:lng=fr&:lng_variant=x&:menu_position=top&:responsive_height=true&:theme=Light" +
      "&:accent_color=%231f4e8c";
    const ok = await open(urlFor(await sign(embedClaims(sub)), PORTFOLIO!.workbookName, allowed));
    expect(ok.res.status).toBe(200);
    expect(ok.boot?.hideMenu).toBe(true);
  });

  it("refuses a teams claim naming a team that does not exist with EINVAL, creating neither team nor user", async () => {
    const sub = "unknown.team@example.com";
    const r = await open(urlFor(await sign(embedClaims(sub, [PORTFOLIO!.teamName, "Offshore Trusts"]))));
    expect(r.code).toBe("EINVAL");
    expect(r.html).toContain("The specified teams in &#34;teams&#34; do not exist: Offshore Trusts.");
    expect(await teamIdOf("Offshore Trusts")).toBeUndefined();
    expect(await memberByEmail(sub)).toBeUndefined();
    // Team names are matched as Sigma shows them, in any case.
    const anyCase = await open(urlFor(await sign(embedClaims(sub, [PORTFOLIO!.teamName.toUpperCase()]))));
    expect(anyCase.res.status).toBe(200);
  });

  it("refuses user claims for an internal user with Sigma's code-less message, and posts no workbook:error", async () => {
    const created = await call("POST", "/v2/members", {
      email: "internal.claims@example.com",
      firstName: "Iris",
      lastName: "Inhouse",
      memberType: "Analyze",
      userKind: "internal",
    });
    const member = ZSigmaMemberSchema.parse(created.body);
    const teamId = (await teamIdOf(PORTFOLIO!.teamName))!;
    await call("PATCH", `/v2/teams/${teamId}/members`, { add: [member.memberId] });
    const base = { sub: member.email };
    for (const claim of [
      { account_type: "View" },
      { teams: [PORTFOLIO!.teamName] },
      { user_attributes: { client_id: CLIENT_A!.clientId } },
      { first_name: "Iris" },
      { last_name: "Inhouse" },
    ]) {
      const r = await open(urlFor(await sign({ ...base, ...claim })));
      const name = Object.keys(claim)[0]!;
      expect(r.res.status, name).toBe(403);
      expect(r.html, name).toContain(INTERNAL_CLAIMS_MESSAGE.replace(/'/g, "&#39;"));
      expect(r.code, name).toBeUndefined();
      expect(r.html, name).not.toContain("workbook:error");
    }
    // Nothing of the member changed.
    expect(await memberByEmail(member.email)).toEqual(member);
  });

  it("opens an internal user's token without user claims as the member: their teams, attributes and account type", async () => {
    const member = ZSigmaMemberSchema.parse(
      (
        await call("POST", "/v2/members", {
          email: "internal.advisor@example.com",
          firstName: "Ada",
          lastName: "Advisor",
          memberType: "Analyze",
          userKind: "internal",
        })
      ).body,
    );
    const token = () => sign({ sub: member.email });
    // Not in any team yet: nothing is shared with them.
    expect((await open(urlFor(await token()))).code).toBe("EACCES");
    await call("PATCH", `/v2/teams/${(await teamIdOf(PORTFOLIO!.teamName))!}/members`, {
      add: [member.memberId],
    });
    const attributes = pageOf(ZSigmaUserAttributeSchema).parse(
      (await call("GET", "/v2/user-attributes?name=client_ids")).body,
    );
    const clientIds = attributes.entries.find((a) => a.name === "client_ids")!;
    const set = await call("POST", `/v2/user-attributes/${clientIds.userAttributeId}/users`, {
      assignments: [
        { userId: member.memberId, value: { type: "string", val: DEMO_EMPLOYEE.clientIds.join(",") } },
      ],
    });
    expect(set).toEqual({ status: 200, body: {} });

    const before = await memberByEmail(member.email);
    const r = await open(urlFor(await token()));
    expect(r.res.status).toBe(200);
    const client = r.boot!.initialData.controls.find((c) => c.id === "Client")!;
    expect(client.options.map((o) => o.value)).toEqual(["all", ...[...DEMO_EMPLOYEE.clientIds].sort()]);
    expect(r.boot!.user).toEqual({ name: "Ada Advisor", email: member.email });
    // Opening changed nothing of the member (no default account type for internal users).
    const after = await memberByEmail(member.email);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ memberType: "Analyze", userKind: "internal" });
    // Their own teams decide: the tax workbook is not shared with them.
    expect((await open(urlFor(await token(), TAX!.workbookName))).code).toBe("EACCES");
  });

  it("answers a data request EACCES once the workbook is no longer shared with the member", async () => {
    const sub = "shared.directly@example.com";
    // No team of theirs has the tax workbook: a grant to the member alone opens it.
    const first = await open(urlFor(await sign(embedClaims(sub, [PORTFOLIO!.teamName])), TAX!.workbookName));
    expect(first.code).toBe("EACCES");
    const member = (await memberByEmail(sub))!;
    const grant = ZSigmaGrantSchema.parse(
      (
        await call("POST", "/v2/grants", {
          grantee: { memberId: member.memberId },
          permission: "view",
          inodeId: await workbookIdOf(TAX!.workbookName),
        })
      ).body,
    );
    const page = await open(urlFor(await sign(embedClaims(sub, [PORTFOLIO!.teamName])), TAX!.workbookName));
    expect(page.res.status).toBe(200);
    const query = () =>
      fetch(`${t.server.embedBaseUrl}/api/embed/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${page.boot!.sessionToken}`, "content-type": "application/json" },
        body: JSON.stringify({ variables: {} }),
      });
    expect((await query()).status).toBe(200);
    await call("DELETE", `/v2/grants/${grant.grantId}`);
    const denied = await query();
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: "EACCES" });
  });
});

describe("how Sigma reads the embed URL", () => {
  it("reads :theme case-sensitively: Light, Dark and Surface; any other name is a custom theme this server lacks", async () => {
    const themeOf = async (theme: string) => {
      const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), { ui: { theme } });
      const r = await open(url);
      expect(r.res.status, theme).toBe(200);
      return /<html lang="en" data-theme="([a-z]+)"/.exec(r.html)?.[1];
    };
    expect(await themeOf("Dark")).toBe("dark");
    expect(await themeOf("Surface")).toBe("surface");
    expect(await themeOf("Light")).toBe("light");
    expect(await themeOf("dark")).toBe("light");
    expect(await themeOf("SURFACE")).toBe("light");
    expect(await themeOf("Midnight")).toBe("light");
  });

  it("reads control values from the raw URL: plain commas between values, %2C inside one, ranges, dates and non-ASCII", async () => {
    const inode = await workbookIdOf(CONTROL_VALUES_WORKBOOK);
    const teamId = (await teamIdOf(PORTFOLIO!.teamName))!;
    const shared = await call("POST", "/v2/grants", {
      grantee: { teamId },
      permission: "view",
      inodeId: inode,
    });
    expect(shared.status).toBe(200);
    const openWith = async (controls: string) =>
      open(urlFor(await sign(embedClaims("values@example.com")), CONTROL_VALUES_WORKBOOK, controls));

    const r = await openWith(
      "&Entity=Smith%2C%20Jones%20%26%20Co&Entities=Zo%C3%AB%20Ltd,Smith%2C%20Jones%20%26%20Co" +
        "&Period=min:2026-10-01,max:2026-10-30",
    );
    expect(r.res.status).toBe(200);
    expect(r.boot!.initialVariables).toEqual({
      Entity: "Smith%2C%20Jones%20%26%20Co",
      Entities: "Zo%C3%AB%20Ltd,Smith%2C%20Jones%20%26%20Co",
      Period: "min:2026-10-01,max:2026-10-30",
    });
    expect(r.boot!.initialData.elements.picked!.rows).toEqual([
      {
        entity: "Smith, Jones & Co",
        entities: "Zoë Ltd | Smith, Jones & Co",
        start_date: "2026-10-01",
        end_date: "2026-10-30",
      },
    ]);
    // The values the page posts (workbook:loaded) are Sigma's URL-encoded strings.
    expect(r.boot!.initialData.variables).toEqual({
      Entity: "Smith%2C%20Jones%20%26%20Co",
      Entities: "Zo%C3%AB%20Ltd,Smith%2C%20Jones%20%26%20Co",
      Period: "min:2026-10-01,max:2026-10-30",
    });

    // Two values for a one-value control: its default. :null clears a list; a blank side of a range is open.
    const other = await openWith("&Entity=Smith,Jones&Entities=:null&Period=min:,max:2026-10-30");
    expect(other.boot!.initialData.elements.picked!.rows[0]).toMatchObject({
      entity: "Plain",
      entities: "",
      end_date: "2026-10-30",
    });
    expect(other.boot!.initialData.variables).toMatchObject({ Entity: "Plain", Entities: ":null" });
    expect(other.boot!.initialData.variables.Period).toMatch(/^min:\d{4}-\d{2}-\d{2},max:2026-10-30$/);

    // The page's later data requests (workbook:variables:update) use the same format.
    const answer = await fetch(`${t.server.embedBaseUrl}/api/embed/query`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.boot!.sessionToken}`, "content-type": "application/json" },
      body: JSON.stringify({ variables: { Entities: "Plain,Zo%C3%AB%20Ltd", Entity: "Zo%C3%AB%20Ltd" } }),
    });
    const data = (await answer.json()) as PageData;
    expect(data.elements.picked!.rows[0]).toMatchObject({ entity: "Zoë Ltd", entities: "Plain | Zoë Ltd" });
    expect(data.variables).toMatchObject({ Entity: "Zo%C3%AB%20Ltd", Entities: "Plain,Zo%C3%AB%20Ltd" });
  });
});
