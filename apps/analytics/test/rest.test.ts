import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { SigmaApiError, SigmaRestClient, ZSigmaMemberSchema, ZSigmaTokenResponseSchema } from "@portal/sigma";
import { API_CLIENT, startTestServer, type TestServer } from "./helpers.ts";

let t: TestServer;
let api: SigmaRestClient;
beforeAll(async () => {
  t = await startTestServer();
  api = new SigmaRestClient({
    apiBaseUrl: t.server.url,
    clientId: API_CLIENT.clientId,
    clientSecret: API_CLIENT.secret,
  });
});
afterAll(async () => {
  await t?.stop();
});

describe("REST API subset under /v2", () => {
  it("issues one-hour tokens for valid client credentials only", async () => {
    const form = (secret: string) =>
      fetch(`${t.server.url}/v2/auth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: API_CLIENT.clientId,
          client_secret: secret,
        }),
      });
    const ok = await form(API_CLIENT.secret);
    expect(ok.status).toBe(200);
    const token = ZSigmaTokenResponseSchema.parse(await ok.json());
    expect(token.expires_in).toBe(3600);
    expect(token.token_type).toBe("bearer");

    const bad = await form("wrong");
    expect(bad.status).toBe(401);
    const body = (await bad.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["code", "message", "requestId"]);
    expect(body.code).toBe("unauthorized");

    const anonymous = await fetch(`${t.server.url}/v2/members`);
    expect(anonymous.status).toBe(401);
    const withToken = await fetch(`${t.server.url}/v2/members`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(withToken.status).toBe(200);
  });

  it("creates, finds, updates and deactivates members; a duplicate email is a 409", async () => {
    const [team] = await api.listTeams(DEMO_WORKBOOKS[0].teamName);
    expect(team?.name).toBe(DEMO_WORKBOOKS[0].teamName);
    const created = await api.createMember({
      email: "Jordan.Lee@example.com",
      firstName: "Jordan",
      lastName: "Lee",
      memberType: "View",
      userKind: "embed",
      addToTeams: [{ teamId: team!.teamId, isTeamAdmin: false }],
    });
    expect(ZSigmaMemberSchema.parse(created)).toMatchObject({
      email: "Jordan.Lee@example.com",
      userKind: "embed",
    });

    const dup = await api
      .createMember({ email: "jordan.lee@example.com", memberType: "View" })
      .catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(SigmaApiError);
    expect(dup).toMatchObject({ status: 409, code: "conflict" });

    expect((await api.findMemberByEmail("JORDAN.LEE@example.com"))?.memberId).toBe(created.memberId);
    expect((await api.listTeamMembers(team!.teamId)).map((m) => m.memberId)).toContain(created.memberId);

    const updated = await api.updateMember(created.memberId, { memberType: "Analyze", lastName: "Lee-Park" });
    expect(updated).toMatchObject({ memberType: "Analyze", lastName: "Lee-Park", firstName: "Jordan" });

    await api.deleteMember(created.memberId);
    expect((await api.getMember(created.memberId)).isInactive).toBe(true);

    const missing = await api.getMember("00000000-0000-0000-0000-000000000000").catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
    const invalid = await api
      .createMember({ email: "not-an-email", memberType: "View" })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: "bad_request" });
  });

  it("pages with limit, page and nextPage until nextPage is null", async () => {
    for (let i = 0; i < 5; i++) {
      await api.createMember({ email: `pager.${i}@example.com`, memberType: "View" });
    }
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    for (;;) {
      const q = new URLSearchParams({ limit: "2", ...(page ? { page } : {}) });
      const res = await fetch(`${t.server.url}/v2/members?${q}`, {
        headers: { authorization: `Bearer ${await api.token()}` },
      });
      const body = (await res.json()) as {
        entries: { email: string }[];
        nextPage: string | null;
        hasMore: boolean;
        total: number;
      };
      expect(body.entries.length).toBeLessThanOrEqual(2);
      seen.push(...body.entries.map((e) => e.email));
      pages++;
      expect(body.hasMore).toBe(body.nextPage !== null);
      if (!body.nextPage) {
        expect(seen.length).toBe(body.total);
        break;
      }
      page = body.nextPage;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(seen.length);
    for (let i = 0; i < 5; i++) expect(seen).toContain(`pager.${i}@example.com`);
  });

  it("creates teams and changes their members", async () => {
    const a = await api.createMember({ email: "team.a@example.com", memberType: "View" });
    const b = await api.createMember({ email: "team.b@example.com", memberType: "View" });
    const team = await api.createTeam({
      name: "Estate Planning Clients",
      description: "Trust clients",
      members: [a.memberId],
    });
    expect(team).toMatchObject({ name: "Estate Planning Clients", description: "Trust clients" });
    const dup = await api.createTeam({ name: "estate planning clients" }).catch((e: unknown) => e);
    expect(dup).toMatchObject({ status: 409 });

    await api.updateTeamMembers(team.teamId, { add: [b.memberId], remove: [a.memberId] });
    expect((await api.listTeamMembers(team.teamId)).map((m) => m.email)).toEqual(["team.b@example.com"]);
    expect((await api.listTeams("Estate Planning Clients")).map((x) => x.teamId)).toEqual([team.teamId]);
  });

  it("lists the workbooks with Sigma-form urls matching the portal's demo workbook names", async () => {
    const workbooks = await api.listWorkbooks();
    for (const demo of DEMO_WORKBOOKS) {
      const urlId = demo.workbookName.split("-").pop()!;
      const wb = workbooks.find((w) => w.workbookUrlId === urlId);
      expect(wb, demo.workbookName).toBeDefined();
      expect(wb!.url).toBe(`${t.server.url}/local/workbook/${demo.workbookName}`);
      expect(wb!.workbookId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
