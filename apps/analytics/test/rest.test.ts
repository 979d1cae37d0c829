import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ZSigmaAccountTypesPageSchema,
  ZSigmaCreatedTeamSchema,
  ZSigmaEmptySchema,
  ZSigmaErrorSchema,
  ZSigmaGrantSchema,
  ZSigmaMemberSchema,
  ZSigmaTeamMemberSchema,
  ZSigmaTeamSchema,
  ZSigmaTokenResponseSchema,
  ZSigmaUserAttributeSchema,
  ZSigmaWorkbookSchema,
  listOf,
  pageOf,
} from "@portal/sigma";
import {
  API_CLIENT,
  PORTFOLIO,
  TAX,
  requestToken,
  restCaller,
  startTestServer,
  type RestAnswer,
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

const MEMBER_FIELDS = [
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
];
const WORKBOOK_FIELDS = [
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
];

/** The answer's body read with `schema` (which fails the test when the shape is not Sigma's). */
function body<T extends z.ZodType>(answer: RestAnswer, status: number, schema: T): z.infer<T> {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return schema.parse(answer.body);
}

/** Sigma's ApiError, with exactly its three fields and one of Sigma's codes. */
function apiError(answer: RestAnswer, status: number, code: string) {
  const error = body(answer, status, ZSigmaErrorSchema);
  expect(Object.keys(error).sort()).toEqual(["code", "message", "requestId"]);
  expect(error.code).toBe(code);
  expect(error.message).toBeTruthy();
  return error;
}

let n = 0;
async function newMember(overrides: Record<string, unknown> = {}) {
  n += 1;
  return body(
    await call("POST", "/v2/members", {
      email: `member.${n}@example.com`,
      firstName: "Member",
      lastName: String(n),
      memberType: "View",
      userKind: "embed",
      ...overrides,
    }),
    200,
    ZSigmaMemberSchema,
  );
}

const teamId = async (name: string) =>
  body(await call("GET", `/v2/teams?name=${encodeURIComponent(name)}`), 200, z.array(ZSigmaTeamSchema))[0]!
    .teamId;
const workbookId = async (workbookName: string) => {
  const page = body(await call("GET", "/v2/workbooks?limit=100"), 200, pageOf(ZSigmaWorkbookSchema));
  return page.entries.find((w) => workbookName.endsWith(`-${w.workbookUrlId}`))!.workbookId;
};

describe("postToken", () => {
  it("issues a one-hour bearer token for grant_type=client_credentials with the client by HTTP Basic auth", async () => {
    const ok = await requestToken(t.server);
    const token = body({ status: ok.status, body: await ok.json() }, 200, ZSigmaTokenResponseSchema);
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    expect(token.refresh_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const authorized = await fetch(`${t.server.url}/v2/members`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(authorized.status).toBe(200);

    const wrong = await requestToken(t.server, undefined, { ...API_CLIENT, secret: "wrong" });
    apiError({ status: wrong.status, body: await wrong.json() }, 401, "EPERM");
    // The client id and secret are not form fields in Sigma's definition.
    const inForm = await fetch(`${t.server.url}/v2/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: API_CLIENT.clientId,
        client_secret: API_CLIENT.secret,
      }).toString(),
    });
    apiError({ status: inForm.status, body: await inForm.json() }, 401, "EPERM");
    const otherGrant = await requestToken(t.server, { grant_type: "password" });
    apiError({ status: otherGrant.status, body: await otherGrant.json() }, 400, "EINVAL");
    const anonymous = await fetch(`${t.server.url}/v2/members`);
    apiError({ status: anonymous.status, body: await anonymous.json() }, 401, "EPERM");
  });

  it("exchanges a refresh token once for a new pair", async () => {
    const first = ZSigmaTokenResponseSchema.parse(await (await requestToken(t.server)).json());
    const refresh = { grant_type: "refresh_token", refresh_token: first.refresh_token };
    const second = await requestToken(t.server, refresh);
    const renewed = body(
      { status: second.status, body: await second.json() },
      200,
      ZSigmaTokenResponseSchema,
    );
    expect(renewed.access_token).not.toBe(first.access_token);
    const again = await requestToken(t.server, refresh);
    apiError({ status: again.status, body: await again.json() }, 400, "EINVAL");
  });
});

describe("members", () => {
  it("createMember and getMember answer the member's 13 required fields, false flags left out", async () => {
    const created = body(
      await call("POST", "/v2/members", {
        email: "Jordan.Lee@example.com",
        firstName: "Jordan",
        lastName: "Lee",
        memberType: "Analyze",
        userKind: "embed",
      }),
      200,
      ZSigmaMemberSchema,
    );
    for (const field of MEMBER_FIELDS) expect(created, field).toHaveProperty(field);
    expect(created).toMatchObject({
      email: "Jordan.Lee@example.com",
      memberType: "Analyze",
      userKind: "embed",
      profileImgUrl: null,
    });
    expect(created.homeFolderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdBy).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).not.toHaveProperty("isArchived");
    expect(created).not.toHaveProperty("isInactive");
    expect(created).not.toHaveProperty("hasMore");
    const fetched = body(await call("GET", `/v2/members/${created.memberId}`), 200, ZSigmaMemberSchema);
    expect(fetched).toEqual(created);
    // Without a userKind a member signs in to Sigma (internal); without a memberType, the lowest type.
    const internal = body(
      await call("POST", "/v2/members", {
        email: "in.house@example.com",
        firstName: "In",
        lastName: "House",
      }),
      200,
      ZSigmaMemberSchema,
    );
    expect(internal).toMatchObject({ userKind: "internal", memberType: "View" });
    apiError(await call("GET", "/v2/members/00000000-0000-0000-0000-000000000000"), 404, "ENOENT");
    apiError(
      await call("POST", "/v2/members", { email: "not-an-email", firstName: "A", lastName: "B" }),
      400,
      "EINVAL",
    );
    apiError(
      await call("POST", "/v2/members", {
        email: "x@example.com",
        firstName: "A",
        lastName: "B",
        memberType: "Boss",
      }),
      400,
      "EINVAL",
    );
  });

  it("listMembers answers a bare array without limit and {entries, nextPage} pages with it", async () => {
    for (let i = 0; i < 4; i++) await newMember();
    const all = body(await call("GET", "/v2/members"), 200, z.array(ZSigmaMemberSchema));
    expect(all.length).toBeGreaterThanOrEqual(4);
    const seen: string[] = [];
    let page: string | null = null;
    let pages = 0;
    do {
      const q: string = new URLSearchParams({ limit: "2", ...(page ? { page } : {}) }).toString();
      const answer = body(await call("GET", `/v2/members?${q}`), 200, pageOf(ZSigmaMemberSchema));
      // listMembers' page form is {entries, nextPage}: no deprecated hasMore (nor total).
      expect(Object.keys(answer).sort()).toEqual(["entries", "nextPage"]);
      expect(answer.entries.length).toBeLessThanOrEqual(2);
      seen.push(...answer.entries.map((m) => m.memberId));
      page = answer.nextPage;
      pages++;
    } while (page);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual(all.map((m) => m.memberId));
    // Both forms are what the portal's schema reads.
    listOf(ZSigmaMemberSchema).parse(all);
    const one = body(
      await call("GET", `/v2/members?email=${encodeURIComponent("JORDAN.LEE@example.com")}`),
      200,
      z.array(ZSigmaMemberSchema),
    );
    expect(one.map((m) => m.email)).toEqual(["Jordan.Lee@example.com"]);
  });

  it("createMember answers 409 EEXIST for an existing email in any case, a deactivated member's too", async () => {
    const member = await newMember();
    const dup = await call("POST", "/v2/members", {
      email: member.email.toUpperCase(),
      firstName: "Again",
      lastName: "Again",
    });
    apiError(dup, 409, "EEXIST");
    body(await call("DELETE", `/v2/members/${member.memberId}`), 200, ZSigmaEmptySchema);
    apiError(
      await call("POST", "/v2/members", { email: member.email, firstName: "A", lastName: "B" }),
      409,
      "EEXIST",
    );
  });

  it("deleteMember archives (isArchived, not isInactive): hidden from listMembers unless includeArchived=true; PATCH isArchived false reactivates", async () => {
    const member = await newMember();
    const deleted = await call("DELETE", `/v2/members/${member.memberId}`);
    expect(body(deleted, 200, ZSigmaEmptySchema)).toEqual({});
    const archived = body(await call("GET", `/v2/members/${member.memberId}`), 200, ZSigmaMemberSchema);
    expect(archived.isArchived).toBe(true);
    expect(archived).not.toHaveProperty("isInactive");

    const listed = async (query: string) =>
      body(await call("GET", `/v2/members?${query}`), 200, z.array(ZSigmaMemberSchema)).map(
        (m) => m.memberId,
      );
    const byEmail = `email=${encodeURIComponent(member.email)}`;
    expect(await listed(byEmail)).toEqual([]);
    expect(await listed("")).not.toContain(member.memberId);
    expect(await listed(`${byEmail}&includeArchived=true`)).toEqual([member.memberId]);
    expect(await listed("includeArchived=true")).toContain(member.memberId);

    const back = body(
      await call("PATCH", `/v2/members/${member.memberId}`, { isArchived: false }),
      200,
      ZSigmaMemberSchema,
    );
    expect(back).not.toHaveProperty("isArchived");
    expect(await listed(byEmail)).toEqual([member.memberId]);
  });

  it("lists SCIM-inactive members only with includeInactive=true", async () => {
    const member = await newMember();
    const inactive = body(
      await call("PATCH", `/v2/members/${member.memberId}`, { isInactive: true }),
      200,
      ZSigmaMemberSchema,
    );
    expect(inactive.isInactive).toBe(true);
    expect(inactive).not.toHaveProperty("isArchived");
    const byEmail = `email=${encodeURIComponent(member.email)}`;
    expect(body(await call("GET", `/v2/members?${byEmail}`), 200, z.array(ZSigmaMemberSchema))).toEqual([]);
    expect(
      body(
        await call("GET", `/v2/members?${byEmail}&includeInactive=true`),
        200,
        z.array(ZSigmaMemberSchema),
      ),
    ).toHaveLength(1);
    expect(
      body(
        await call("GET", `/v2/members?${byEmail}&includeArchived=true`),
        200,
        z.array(ZSigmaMemberSchema),
      ),
    ).toEqual([]);
  });

  it("updateMember answers the member and refuses another member's email with 409", async () => {
    const a = await newMember();
    const b = await newMember();
    const updated = body(
      await call("PATCH", `/v2/members/${a.memberId}`, { memberType: "Act", lastName: "Lee-Park" }),
      200,
      ZSigmaMemberSchema,
    );
    expect(updated).toMatchObject({ memberType: "Act", lastName: "Lee-Park", firstName: "Member" });
    apiError(await call("PATCH", `/v2/members/${a.memberId}`, { email: b.email }), 409, "EEXIST");
  });
});

describe("teams", () => {
  it("createTeam answers the team with members and workspaceId; 409 EEXIST for an existing name in any case", async () => {
    const a = await newMember();
    const created = body(
      await call("POST", "/v2/teams", {
        name: "Estate Planning Clients",
        description: "Trust clients",
        members: [a.memberId],
      }),
      200,
      ZSigmaCreatedTeamSchema,
    );
    expect(created).toMatchObject({
      name: "Estate Planning Clients",
      description: "Trust clients",
      visibility: "private",
      members: [a.memberId],
      workspaceId: null,
    });
    expect(created).not.toHaveProperty("isArchived");
    apiError(await call("POST", "/v2/teams", { name: "ESTATE planning clients" }), 409, "EEXIST");
    const folder = body(
      await call("POST", "/v2/teams", {
        name: "With a folder",
        createTeamFolder: true,
        visibility: "public",
      }),
      200,
      ZSigmaCreatedTeamSchema,
    );
    expect(folder.workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(folder.visibility).toBe("public");
    apiError(await call("POST", "/v2/teams", { name: "Nobody", members: ["no-such-member"] }), 400, "EINVAL");
  });

  it("getTeamMembers answers the members by userId as {entries: [{userId, isTeamAdmin, addedBy}], nextPage}", async () => {
    const a = await newMember();
    const b = await newMember();
    const team = body(
      await call("POST", "/v2/teams", { name: "Trust Team", members: [a.memberId] }),
      200,
      ZSigmaCreatedTeamSchema,
    );
    const admin = await newMember({ addToTeams: [{ teamId: team.teamId, isTeamAdmin: true }] });
    body(
      await call("PATCH", `/v2/teams/${team.teamId}/members`, { add: [b.memberId], remove: [a.memberId] }),
      200,
      ZSigmaEmptySchema,
    );
    const page = body(
      await call("GET", `/v2/teams/${team.teamId}/members`),
      200,
      pageOf(ZSigmaTeamMemberSchema),
    );
    expect(page.nextPage).toBeNull();
    expect(page).not.toHaveProperty("hasMore");
    expect(page.entries).toEqual([
      { userId: b.memberId, isTeamAdmin: false, addedBy: b.createdBy },
      { userId: admin.memberId, isTeamAdmin: true, addedBy: admin.createdBy },
    ]);
    for (const entry of page.entries)
      expect(Object.keys(entry).sort()).toEqual(["addedBy", "isTeamAdmin", "userId"]);
    const first = body(
      await call("GET", `/v2/teams/${team.teamId}/members?limit=1`),
      200,
      pageOf(ZSigmaTeamMemberSchema),
    );
    expect(first.entries).toHaveLength(1);
    expect(first.nextPage).toEqual(expect.any(String));
    apiError(await call("GET", "/v2/teams/no-such-team/members"), 404, "ENOENT");
  });

  it("listTeams answers a bare array without limit and a page with it", async () => {
    const all = body(await call("GET", "/v2/teams"), 200, z.array(ZSigmaTeamSchema));
    expect(all.map((x) => x.name)).toContain(PORTFOLIO!.teamName);
    const page = body(await call("GET", "/v2/teams?limit=1"), 200, pageOf(ZSigmaTeamSchema));
    expect(Object.keys(page).sort()).toEqual(["entries", "nextPage"]);
    expect(page.entries).toEqual([all[0]]);
    const named = body(
      await call("GET", `/v2/teams?name=${encodeURIComponent(PORTFOLIO!.teamName.toUpperCase())}`),
      200,
      z.array(ZSigmaTeamSchema),
    );
    expect(named.map((x) => x.name)).toEqual([PORTFOLIO!.teamName]);
  });
});

describe("workbooks", () => {
  it("listWorkbooks and getWorkbook answer the workbook's 11 required fields, url in Sigma's form", async () => {
    const page = body(await call("GET", "/v2/workbooks"), 200, pageOf(ZSigmaWorkbookSchema));
    expect(page.nextPage).toBeNull();
    expect(page).not.toHaveProperty("hasMore");
    const wb = page.entries.find((w) => PORTFOLIO!.workbookName.endsWith(`-${w.workbookUrlId}`))!;
    for (const field of WORKBOOK_FIELDS) expect(wb, field).toHaveProperty(field);
    expect(wb.url).toBe(`${t.server.url}/local/workbook/${PORTFOLIO!.workbookName}`);
    expect(wb.workbookId).toMatch(/^[0-9a-f-]{36}$/);
    expect(wb.ownerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(wb).not.toHaveProperty("isArchived");
    expect(wb.description).toContain("Household value");
    const one = body(await call("GET", `/v2/workbooks/${wb.workbookId}`), 200, ZSigmaWorkbookSchema);
    expect(one).toEqual(wb);
    apiError(await call("GET", "/v2/workbooks/00000000-0000-0000-0000-000000000000"), 404, "ENOENT");
  });
});

describe("grants", () => {
  it("the demo workbooks are shared with their teams, as the firm would have done", async () => {
    const inode = await workbookId(PORTFOLIO!.workbookName);
    const page = body(await call("GET", `/v2/grants?inodeId=${inode}`), 200, pageOf(ZSigmaGrantSchema));
    expect(page.entries).toEqual([
      expect.objectContaining({
        inodeId: inode,
        teamId: await teamId(PORTFOLIO!.teamName),
        memberId: null,
        permission: "view",
        inodeType: "workbook",
      }),
    ]);
  });

  it("createGrant to a team or a member; getGrant; listGrants by inodeId, teamId and userId; deleteGrant answers the deleted grant", async () => {
    const inode = await workbookId(TAX!.workbookName);
    const member = await newMember();
    const team = body(
      await call("POST", "/v2/teams", { name: "Tax Reviewers" }),
      200,
      ZSigmaCreatedTeamSchema,
    );
    const byTeam = body(
      await call("POST", "/v2/grants", {
        grantee: { teamId: team.teamId },
        permission: "view",
        inodeId: inode,
      }),
      200,
      ZSigmaGrantSchema,
    );
    expect(byTeam).toMatchObject({ teamId: team.teamId, memberId: null, inodeId: inode, permission: "view" });
    const byMember = body(
      await call("POST", "/v2/grants", {
        grantee: { memberId: member.memberId },
        permission: "explore",
        inodeId: inode,
      }),
      200,
      ZSigmaGrantSchema,
    );
    expect(byMember).toMatchObject({ memberId: member.memberId, teamId: null, permission: "explore" });
    expect(body(await call("GET", `/v2/grants/${byMember.grantId}`), 200, ZSigmaGrantSchema)).toEqual(
      byMember,
    );

    const ids = async (query: string) =>
      body(await call("GET", `/v2/grants?${query}`), 200, pageOf(ZSigmaGrantSchema)).entries.map(
        (g) => g.grantId,
      );
    expect(await ids(`inodeId=${inode}`)).toEqual(expect.arrayContaining([byTeam.grantId, byMember.grantId]));
    expect(await ids(`teamId=${team.teamId}`)).toEqual([byTeam.grantId]);
    expect(await ids(`userId=${member.memberId}`)).toEqual([byMember.grantId]);
    expect(await ids(`inodeId=${inode}&teamId=${team.teamId}`)).toEqual([byTeam.grantId]);

    const deleted = body(await call("DELETE", `/v2/grants/${byTeam.grantId}`), 200, ZSigmaGrantSchema);
    expect(deleted).toEqual(byTeam);
    expect(await ids(`teamId=${team.teamId}`)).toEqual([]);
    apiError(await call("GET", `/v2/grants/${byTeam.grantId}`), 404, "ENOENT");
    apiError(await call("DELETE", `/v2/grants/${byTeam.grantId}`), 404, "ENOENT");
  });

  it("createGrant only raises access: a lower permission leaves the grant, a higher one raises it", async () => {
    const inode = await workbookId(TAX!.workbookName);
    const member = await newMember();
    const grant = (permission: string) =>
      call("POST", "/v2/grants", { grantee: { memberId: member.memberId }, permission, inodeId: inode });
    const explore = body(await grant("explore"), 200, ZSigmaGrantSchema);
    expect(body(await grant("view"), 200, ZSigmaGrantSchema)).toEqual(explore);
    const edit = body(await grant("edit"), 200, ZSigmaGrantSchema);
    expect(edit).toMatchObject({ grantId: explore.grantId, permission: "edit" });
  });

  it("createGrant refuses a team or member that does not exist, and an inode that is not a workbook, with a 4xx ApiError", async () => {
    const inode = await workbookId(TAX!.workbookName);
    const member = await newMember();
    const grant = (b: unknown) => call("POST", "/v2/grants", b);
    apiError(
      await grant({ grantee: { teamId: "no-such-team" }, permission: "view", inodeId: inode }),
      404,
      "ENOENT",
    );
    apiError(
      await grant({ grantee: { memberId: "no-such-member" }, permission: "view", inodeId: inode }),
      404,
      "ENOENT",
    );
    apiError(
      await grant({
        grantee: { memberId: member.memberId },
        permission: "view",
        inodeId: member.homeFolderId,
      }),
      404,
      "ENOENT",
    );
    // A connection's permission is not a workbook's; one grantee only.
    apiError(
      await grant({ grantee: { memberId: member.memberId }, permission: "usage", inodeId: inode }),
      400,
      "EINVAL",
    );
    apiError(
      await grant({
        grantee: { memberId: member.memberId, teamId: "x" },
        permission: "view",
        inodeId: inode,
      }),
      400,
      "EINVAL",
    );
    expect(
      body(await call("GET", `/v2/grants?userId=${member.memberId}`), 200, pageOf(ZSigmaGrantSchema)).entries,
    ).toEqual([]);
  });
});

describe("account types and user attributes", () => {
  it("listAccountTypes answers View, Act, Analyze and Build, paged by pageSize and pageToken", async () => {
    const all = body(await call("GET", "/v2/accountTypes"), 200, ZSigmaAccountTypesPageSchema);
    expect(all.entries.map((e) => [e.accountTypeName, e.isCustom])).toEqual([
      ["View", false],
      ["Act", false],
      ["Analyze", false],
      ["Build", false],
    ]);
    // nextPageToken is absent on the last page, not null.
    expect(all).not.toHaveProperty("nextPageToken");
    const first = body(await call("GET", "/v2/accountTypes?pageSize=3"), 200, ZSigmaAccountTypesPageSchema);
    expect(first.entries).toHaveLength(3);
    const rest = body(
      await call("GET", `/v2/accountTypes?pageSize=3&pageToken=${first.nextPageToken}`),
      200,
      ZSigmaAccountTypesPageSchema,
    );
    expect(rest.entries.map((e) => e.accountTypeName)).toEqual(["Build"]);
    expect(rest).not.toHaveProperty("nextPageToken");
  });

  it("listUserAttributes answers the row-security attributes client_id and client_ids, filtered by name", async () => {
    const all = body(await call("GET", "/v2/user-attributes"), 200, pageOf(ZSigmaUserAttributeSchema));
    expect(all.entries.map((a) => a.name)).toEqual(["client_id", "client_ids"]);
    expect(all).toMatchObject({ nextPage: null, total: 2 });
    const ids = body(
      await call("GET", "/v2/user-attributes?name=IDS"),
      200,
      pageOf(ZSigmaUserAttributeSchema),
    );
    expect(ids.entries.map((a) => a.name)).toEqual(["client_ids"]);
    const one = body(
      await call("GET", `/v2/user-attributes/${all.entries[0]!.userAttributeId}`),
      200,
      ZSigmaUserAttributeSchema,
    );
    expect(one).toEqual(all.entries[0]);
  });
});
