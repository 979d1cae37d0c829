import { SignJWT } from "jose";
import type { JWTPayload } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSigmaStandIn } from "./support/sigma-standin/index.ts";
import type { SigmaStandIn } from "./support/sigma-standin/index.ts";

// Tests of the stand-in for Sigma itself (not of the portal): each checks one reading of Sigma's
// published material that the portal will later be tried against.

const REQUIRED_MEMBER_FIELDS = [
  "organizationId",
  "memberId",
  "memberType",
  "firstName",
  "lastName",
  "email",
  "profileImgUrl",
  "createdBy",
  "updatedBy",
  "createdAt",
  "updatedAt",
  "homeFolderId",
  "userKind",
].sort();

let sigma: SigmaStandIn;
let token: string;
let counter = 0;

const unique = (prefix: string) => `${prefix}-${++counter}`;

async function fetchToken(s: SigmaStandIn, id = s.credentials.clientId, secret = s.credentials.clientSecret) {
  return fetch(`${s.url}/v2/auth/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
    },
    body: "grant_type=client_credentials",
  });
}

async function api(method: string, path: string, body?: unknown, bearer = token) {
  const response = await fetch(`${sigma.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

async function createMember(fields: Record<string, unknown> = {}) {
  const email = `${unique("person")}@clients.example`;
  const response = await api("POST", "/v2/members", {
    email,
    firstName: "Ada",
    lastName: "Client",
    ...fields,
  });
  expect(response.status).toBe(200);
  return response.body as { memberId: string; email: string; userKind: string; memberType: string };
}

async function signEmbed(
  claims: JWTPayload,
  options: { kid?: string; secret?: string; lifetime?: number } = {},
) {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ jti: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: "HS256", kid: options.kid ?? sigma.embedCredentials.clientId })
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.lifetime ?? 3600))
    .sign(new TextEncoder().encode(options.secret ?? sigma.embedCredentials.secret));
}

function openEmbed(jwt: string, workbookUrlId = "TaxUrlId01", extra = "") {
  return fetch(
    `${sigma.url}${sigma.embedPath(workbookUrlId)}?:jwt=${encodeURIComponent(jwt)}&:embed=true${extra}`,
  );
}

beforeAll(async () => {
  sigma = await startSigmaStandIn({
    workbooks: [
      { name: "Tax Center", workbookUrlId: "TaxUrlId01" },
      { name: "Portfolio Overview", workbookUrlId: "PortfolioUrlId02" },
    ],
    userAttributes: [{ name: "client_id" }, { name: "region" }],
  });
  token = (await (await fetchToken(sigma)).json()).access_token;
});

afterAll(async () => {
  await sigma.close();
});

describe("token", () => {
  it("issues a bearer token for client credentials sent by HTTP Basic auth", async () => {
    const response = await fetchToken(sigma);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "token_type"]);
    expect(body.token_type).toBe("bearer");
    expect(body.expires_in).toBe(3600);
    expect((await api("GET", "/v2/whoami", undefined, body.access_token)).body.userId).toBe(
      sigma.owner.memberId,
    );
  });

  it("refuses wrong credentials with 401 in the ApiError shape", async () => {
    const response = await fetchToken(sigma, sigma.credentials.clientId, "wrong");
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(typeof body.message).toBe("string");
    expect(body.code).toBe("unauthorized");
    expect(typeof body.requestId).toBe("string");
  });

  it("answers 401 without a bearer token and with a revoked one", async () => {
    expect((await fetch(`${sigma.url}/v2/members`)).status).toBe(401);
    const own = await startSigmaStandIn();
    try {
      const first = (await (await fetchToken(own)).json()).access_token;
      const call = (t: string) =>
        fetch(`${own.url}/v2/members`, { headers: { authorization: `Bearer ${t}` } });
      expect((await call(first)).status).toBe(200);
      own.revokeTokens();
      expect((await call(first)).status).toBe(401);
      const second = (await (await fetchToken(own)).json()).access_token;
      expect((await call(second)).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it("refuses the old secret after rotation and accepts the new one", async () => {
    const own = await startSigmaStandIn();
    try {
      const old = own.credentials;
      const next = own.rotateCredentials();
      expect((await fetchToken(own, old.clientId, old.clientSecret)).status).toBe(401);
      expect((await fetchToken(own, next.clientId, next.clientSecret)).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it("expires tokens after expires_in seconds of the stand-in's clock", async () => {
    let now = new Date("2026-01-05T09:00:00Z");
    const own = await startSigmaStandIn({ now: () => now });
    try {
      const t = (await (await fetchToken(own)).json()).access_token;
      const call = () => fetch(`${own.url}/v2/whoami`, { headers: { authorization: `Bearer ${t}` } });
      expect((await call()).status).toBe(200);
      now = new Date(now.getTime() + 3600 * 1000);
      expect((await call()).status).toBe(401);
    } finally {
      await own.close();
    }
  });
});

describe("members", () => {
  it("answers a bare array without limit and {entries, nextPage} pages with it", async () => {
    await createMember();
    await createMember();
    const bare = await api("GET", "/v2/members");
    expect(Array.isArray(bare.body)).toBe(true);

    const first = await api("GET", "/v2/members?limit=1");
    expect(Object.keys(first.body).sort()).toEqual(["entries", "nextPage"]);
    expect(first.body.entries).toHaveLength(1);
    expect(typeof first.body.nextPage).toBe("string");
    const seen: string[] = [];
    let page: string | null = null;
    do {
      const query: string = page === null ? "" : `&page=${encodeURIComponent(page)}`;
      const response = await api("GET", `/v2/members?limit=2${query}`);
      seen.push(...response.body.entries.map((m: { memberId: string }) => m.memberId));
      page = response.body.nextPage;
    } while (page !== null);
    expect(seen.sort()).toEqual(bare.body.map((m: { memberId: string }) => m.memberId).sort());
  });

  it("gives a member exactly the 13 required fields while it is active", async () => {
    const created = await createMember();
    const fetched = await api("GET", `/v2/members/${created.memberId}`);
    expect(Object.keys(fetched.body).sort()).toEqual(REQUIRED_MEMBER_FIELDS);
    expect(created.userKind).toBe("internal");
    expect(created.memberType).toBe("View");
  });

  it("hides deactivated members unless includeArchived=true", async () => {
    const member = await createMember({ userKind: "embed" });
    expect((await api("DELETE", `/v2/members/${member.memberId}`)).body).toEqual({});
    const byEmail = `/v2/members?email=${encodeURIComponent(member.email)}`;
    expect((await api("GET", byEmail)).body).toEqual([]);
    const archived = (await api("GET", `${byEmail}&includeArchived=true`)).body;
    expect(archived).toHaveLength(1);
    expect(archived[0].isArchived).toBe(true);
  });

  it("answers 409 for an email already held, in any case and by a deactivated member", async () => {
    const member = await createMember({ userKind: "embed" });
    const again = { email: member.email.toUpperCase(), firstName: "A", lastName: "B" };
    expect((await api("POST", "/v2/members", again)).status).toBe(409);
    await api("DELETE", `/v2/members/${member.memberId}`);
    expect((await api("POST", "/v2/members", again)).status).toBe(409);
    expect(sigma.duplicateEmails()).toEqual([]);
  });

  it("answers 400 when a required field is missing, and for malformed JSON", async () => {
    expect((await api("POST", "/v2/members", { email: "x@clients.example", firstName: "X" })).status).toBe(
      400,
    );
    const malformed = await fetch(`${sigma.url}/v2/members`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe("bad_request");
  });

  it("sends invitations to internal users only", async () => {
    const embed = await createMember({ userKind: "embed" });
    const internal = await createMember();
    expect(sigma.invitations).toContain(internal.email);
    expect(sigma.invitations).not.toContain(embed.email);
  });

  it("logs every PATCH and reports changes to an internal user's type or activation", async () => {
    const internal = sigma.addMember({ email: `${unique("employee")}@firm.example`, memberType: "Analyze" });
    const response = await api("PATCH", `/v2/members/${internal.memberId}`, {
      memberType: "View",
      firstName: "E",
    });
    expect(response.status).toBe(200);
    expect(sigma.patchLog.at(-1)).toMatchObject({ memberId: internal.memberId, userKindBefore: "internal" });
    expect(sigma.violations).toContain(`PATCH of internal user ${internal.email}: memberType`);
  });
});

describe("teams", () => {
  it("answers 409 for a team name already used, in any case", async () => {
    const name = unique("Clients");
    const created = await api("POST", "/v2/teams", { name });
    expect(created.status).toBe(200);
    expect(created.body.workspaceId).toBeNull();
    expect(created.body.members).toEqual([]);
    expect((await api("POST", "/v2/teams", { name: name.toUpperCase() })).status).toBe(409);
    expect((await api("GET", `/v2/teams?name=${encodeURIComponent(name)}`)).body).toHaveLength(1);
  });

  it("lists team members by userId, and refuses unknown or inactive members", async () => {
    const team = (await api("POST", "/v2/teams", { name: unique("Team") })).body;
    const member = await createMember({ userKind: "embed" });
    expect((await api("PATCH", `/v2/teams/${team.teamId}/members`, { add: [member.memberId] })).body).toEqual(
      {},
    );
    const page = (await api("GET", `/v2/teams/${team.teamId}/members`)).body;
    expect(page.entries).toEqual([
      { userId: member.memberId, isTeamAdmin: false, addedBy: sigma.owner.memberId },
    ]);
    expect(page.nextPage).toBeNull();

    expect((await api("PATCH", `/v2/teams/${team.teamId}/members`, { add: ["nobody"] })).status).toBe(400);
    const inactive = sigma.addMember({ email: `${unique("gone")}@clients.example`, isInactive: true });
    expect(
      (await api("PATCH", `/v2/teams/${team.teamId}/members`, { add: [inactive.memberId] })).status,
    ).toBe(400);
    expect(sigma.teamsOf(inactive.memberId)).toEqual([]);
  });
});

describe("workbooks and grants", () => {
  it("lists workbooks with the required fields", async () => {
    const page = (await api("GET", "/v2/workbooks")).body;
    expect(page.nextPage).toBeNull();
    const tax = page.entries.find((w: { workbookUrlId: string }) => w.workbookUrlId === "TaxUrlId01");
    expect(Object.keys(tax).sort()).toEqual(
      [
        "workbookId",
        "workbookUrlId",
        "name",
        "url",
        "path",
        "latestVersion",
        "ownerId",
        "createdBy",
        "updatedBy",
        "createdAt",
        "updatedAt",
      ].sort(),
    );
    expect((await api("GET", `/v2/workbooks/${tax.workbookId}`)).body.name).toBe("Tax Center");
  });

  it("creates, escalates, lists and deletes a grant", async () => {
    const team = (await api("POST", "/v2/teams", { name: unique("Grantees") })).body;
    const inodeId = sigma.workbookByUrlId("PortfolioUrlId02")!.workbookId;
    const grant = (
      await api("POST", "/v2/grants", { grantee: { teamId: team.teamId }, permission: "view", inodeId })
    ).body;
    expect(grant).toMatchObject({
      inodeId,
      teamId: team.teamId,
      memberId: null,
      permission: "view",
      inodeType: "workbook",
    });
    const again = await api("POST", "/v2/grants", {
      grantee: { teamId: team.teamId },
      permission: "explore",
      inodeId,
    });
    expect(again.body.grantId).toBe(grant.grantId);
    expect(again.body.permission).toBe("explore");

    const listed = (await api("GET", `/v2/grants?teamId=${team.teamId}`)).body.entries;
    expect(listed.map((g: { grantId: string }) => g.grantId)).toEqual([grant.grantId]);
    const deleted = await api("DELETE", `/v2/grants/${grant.grantId}`);
    expect(deleted.body.grantId).toBe(grant.grantId);
    expect((await api("GET", `/v2/grants/${grant.grantId}`)).status).toBe(404);
  });

  it("refuses a grant to a team that does not exist and reports it", async () => {
    const inodeId = sigma.workbookByUrlId("TaxUrlId01")!.workbookId;
    const response = await api("POST", "/v2/grants", {
      grantee: { teamId: "no-such-team" },
      permission: "view",
      inodeId,
    });
    expect(response.status).toBe(400);
    expect(sigma.violations).toContain("grant to a team that does not exist: no-such-team");
  });
});

describe("account types, user attributes, unknown paths", () => {
  it("lists Sigma's default account types with pageToken paging", async () => {
    const first = (await api("GET", "/v2/accountTypes?pageSize=3")).body;
    expect(first.entries.map((a: { accountTypeName: string }) => a.accountTypeName)).toEqual([
      "View",
      "Act",
      "Analyze",
    ]);
    const rest = (await api("GET", `/v2/accountTypes?pageSize=3&pageToken=${first.nextPageToken}`)).body;
    expect(rest.entries.map((a: { accountTypeName: string }) => a.accountTypeName)).toEqual([
      "Build",
      "Admin",
    ]);
    expect(rest).not.toHaveProperty("nextPageToken");
  });

  it("filters user attributes by name", async () => {
    const page = (await api("GET", "/v2/user-attributes?name=region")).body;
    expect(page.entries.map((a: { name: string }) => a.name)).toEqual(["region"]);
  });

  it("answers 404 in the ApiError shape for an unknown path", async () => {
    const response = await api("GET", "/v2/nothing-here");
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("not_found");
  });
});

describe("faults", () => {
  it("fails the next calls of an operation, then recovers", async () => {
    sigma.failNext("listTeams", { status: 503, count: 2 });
    expect((await api("GET", "/v2/teams")).status).toBe(503);
    expect((await api("GET", "/v2/teams")).status).toBe(503);
    expect((await api("GET", "/v2/teams")).status).toBe(200);
  });

  it("can act and still answer an error, so a retry meets a 409", async () => {
    sigma.failNext("createMember", { status: 500, afterEffect: true });
    const body = {
      email: `${unique("lost")}@clients.example`,
      firstName: "L",
      lastName: "R",
      userKind: "embed",
    };
    expect((await api("POST", "/v2/members", body)).status).toBe(500);
    expect(sigma.memberByEmail(body.email)).toBeDefined();
    expect((await api("POST", "/v2/members", body)).status).toBe(409);
  });

  it("answers 409 on the next create without creating anything", async () => {
    sigma.conflictOnNextCreate("createTeam");
    const name = unique("Raced");
    expect((await api("POST", "/v2/teams", { name })).status).toBe(409);
    expect(sigma.teamByName(name)).toBeUndefined();
  });
});

describe("embed", () => {
  let clients: { teamId: string };

  beforeEach(() => {
    const name = unique("Portal Clients");
    clients = sigma.addTeam({ name });
    sigma.addGrant({ workbookUrlId: "TaxUrlId01", teamId: clients.teamId });
  });

  const teamName = () => sigma.teams().find((t) => t.teamId === clients.teamId)!.name;

  it("creates an embed user from the claims and opens a workbook shared with their team", async () => {
    const email = `${unique("olivia")}@clients.example`;
    const jwt = await signEmbed({
      sub: email,
      teams: [teamName()],
      account_type: "View",
      first_name: "Olivia",
      user_attributes: { client_id: "C-1" },
    });
    const response = await openEmbed(jwt);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('data-status="open"');
    const member = sigma.memberByEmail(email)!;
    expect(member).toMatchObject({ userKind: "embed", memberType: "View", firstName: "Olivia" });
    expect(sigma.teamsOf(member.memberId).map((t) => t.teamId)).toEqual([clients.teamId]);
    expect(sigma.userAttributesOf(member.memberId)).toEqual({ client_id: "C-1" });
    expect(sigma.embedLog.at(-1)).toMatchObject({ email, created: true });
  });

  it("accepts a jti once: the same URL again is refused as a replay", async () => {
    const jwt = await signEmbed({ sub: `${unique("replay")}@clients.example`, teams: [teamName()] });
    expect((await openEmbed(jwt)).status).toBe(200);
    const replay = await openEmbed(jwt);
    expect(replay.status).toBe(403);
    expect(sigma.embedRejections.at(-1)!.reason).toBe("jti was already used");
  });

  it("refuses a JWT signed with another secret or another kid", async () => {
    const sub = `${unique("forged")}@clients.example`;
    expect(
      (await openEmbed(await signEmbed({ sub, teams: [teamName()] }, { secret: "other-secret" }))).status,
    ).toBe(403);
    expect(
      (await openEmbed(await signEmbed({ sub, teams: [teamName()] }, { kid: "other-client" }))).status,
    ).toBe(403);
    expect(sigma.memberByEmail(sub)).toBeUndefined();
  });

  it("answers EINVAL for a session over 30 days, a bad ver, or 1.1 without aud", async () => {
    const sub = `${unique("claims")}@clients.example`;
    const teams = [teamName()];
    const cases = [
      await signEmbed({ sub, teams }, { lifetime: 2_592_001 }),
      await signEmbed({ sub, teams, ver: "2.0" }),
      await signEmbed({ sub, teams, ver: "1.1" }),
    ];
    for (const jwt of cases) {
      const response = await openEmbed(jwt);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('data-code="EINVAL"');
    }
    expect((await openEmbed(await signEmbed({ sub, teams, ver: "1.1", aud: "sigmacomputing" }))).status).toBe(
      200,
    );
  });

  it("refuses user claims for an internal user and reports them", async () => {
    const employee = sigma.addMember({ email: `${unique("advisor")}@firm.example`, memberType: "Build" });
    sigma.addGrant({ workbookUrlId: "TaxUrlId01", memberId: employee.memberId });
    const response = await openEmbed(await signEmbed({ sub: employee.email, teams: [teamName()] }));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Cannot update account type for internal users.");
    expect(sigma.violations).toContain(`internal user received user claims: ${employee.email} (teams)`);
    // Without those claims the same user opens the workbook shared with them directly.
    expect((await openEmbed(await signEmbed({ sub: employee.email }))).status).toBe(200);
    expect(sigma.memberByEmail(employee.email)!.memberType).toBe("Build");
  });

  it("answers EINVAL for a team that does not exist and EACCES for a workbook not shared", async () => {
    const sub = `${unique("marcus")}@clients.example`;
    const unknownTeam = await openEmbed(await signEmbed({ sub, teams: ["No Such Team"] }));
    expect(unknownTeam.status).toBe(400);
    expect(sigma.memberByEmail(sub)).toBeUndefined();

    const notShared = await openEmbed(await signEmbed({ sub, teams: [teamName()] }), "PortfolioUrlId02");
    expect(notShared.status).toBe(403);
    expect(await notShared.text()).toContain('data-code="EACCES"');
  });

  it("replaces an embed user's teams with the teams claim", async () => {
    const sub = `${unique("moving")}@clients.example`;
    expect((await openEmbed(await signEmbed({ sub, teams: [teamName()] }))).status).toBe(200);
    const other = sigma.addTeam({ name: unique("Other Clients") });
    sigma.addGrant({ workbookUrlId: "TaxUrlId01", teamId: other.teamId });
    expect((await openEmbed(await signEmbed({ sub, teams: [other.name] }))).status).toBe(200);
    const member = sigma.memberByEmail(sub)!;
    expect(sigma.teamsOf(member.memberId).map((t) => t.teamId)).toEqual([other.teamId]);
  });

  it("answers EINVAL for an unknown colon parameter", async () => {
    const jwt = await signEmbed({ sub: `${unique("param")}@clients.example`, teams: [teamName()] });
    const response = await openEmbed(jwt, "TaxUrlId01", "&:hide_everything=true");
    expect(response.status).toBe(400);
    expect(sigma.embedRejections.at(-1)!.reason).toBe("unknown URL parameter :hide_everything");
  });
});
