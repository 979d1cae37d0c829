import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SigmaApiError, SigmaRestClient, SigmaShapeError } from "../src/index.ts";

// A small real HTTP server answering as Sigma's published definition says: the token by HTTP Basic
// authentication, pages of {entries, nextPage} with only the required member fields, errors as ApiError.
let server: Server;
let baseUrl: string;
const calls: string[] = [];
let tokenRequests = 0;
let issued = new Set<string>();
/** What the next members answer looks like: as published, or missing a required field. */
let memberShape: "published" | "no-homeFolderId" = "published";

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

/** Exactly the 13 fields Sigma marks required: no isArchived, isInactive, total or hasMore. */
const member = (i: number) => ({
  organizationId: "o",
  memberId: `m${i}`,
  memberType: "view",
  firstName: "F",
  lastName: "L",
  email: `u${i}@example.com`,
  profileImgUrl: null,
  createdBy: "admin",
  updatedBy: "admin",
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
  homeFolderId: `f${i}`,
  userKind: "embed",
});

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    calls.push(`${req.method} ${url.pathname}${url.search}`);
    res.setHeader("content-type", "application/json");
    if (url.pathname === "/v2/auth/token") {
      tokenRequests++;
      const form = new URLSearchParams(await body(req));
      if (tokenRequests === 1) {
        res.statusCode = 429;
        res.end(JSON.stringify({ requestId: "r1", message: "slow down", code: "TOO_MANY_REQUESTS" }));
        return;
      }
      const basic = `Basic ${Buffer.from("id:s3cret").toString("base64")}`;
      if (req.headers.authorization !== basic || form.get("grant_type") !== "client_credentials") {
        res.statusCode = 401;
        res.end(JSON.stringify({ requestId: "r2", message: "bad credentials", code: "UNAUTHORIZED" }));
        return;
      }
      const token = `tok${tokenRequests}`;
      issued.add(token);
      res.end(
        JSON.stringify({ access_token: token, refresh_token: "r", token_type: "bearer", expires_in: 3600 }),
      );
      return;
    }
    if (!issued.has(req.headers.authorization?.replace(/^Bearer /, "") ?? "")) {
      res.statusCode = 401;
      res.end(JSON.stringify({ message: "no token" }));
      return;
    }
    if (url.pathname === "/v2/members") {
      const page = url.searchParams.get("page");
      const entry = (i: number) => {
        const { homeFolderId: _h, ...rest } = member(i);
        return memberShape === "published" ? member(i) : rest;
      };
      res.end(
        JSON.stringify(
          page ? { entries: [entry(3)], nextPage: null } : { entries: [entry(1), entry(2)], nextPage: "p2" },
        ),
      );
      return;
    }
    if (url.pathname === "/v2/teams/t1/members") {
      res.end(
        JSON.stringify({ entries: [{ userId: "m1", isTeamAdmin: false, addedBy: "admin" }], nextPage: null }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ requestId: "r4", message: "not found", code: "NOT_FOUND" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  memberShape = "published";
});

const client = (sleeps: number[] = []) =>
  new SigmaRestClient({
    apiBaseUrl: baseUrl,
    clientId: "id",
    clientSecret: "s3cret",
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });

describe("SigmaRestClient", () => {
  it("asks for a token by HTTP Basic authentication, retries a throttled one, caches it, follows nextPage", async () => {
    const sleeps: number[] = [];
    const c = client(sleeps);
    const members = await c.listMembers();
    expect(members.map((m) => m.memberId)).toEqual(["m1", "m2", "m3"]);
    // Only Sigma's required fields: the optional ones stay absent, and nothing requires them.
    expect(members[0]).not.toHaveProperty("isArchived");
    expect(sleeps).toEqual([500]);
    expect(tokenRequests).toBe(2);
    expect(calls).toContain("GET /v2/members?limit=1000&page=p2");
    await c.findMemberByEmail("u2@example.com");
    expect(tokenRequests).toBe(2);
    // Deactivated and SCIM-inactive members are looked for too: a returning person is never created twice.
    const lookup = calls.find((c) => c.includes("email=u2%40example.com"));
    expect(lookup).toMatch(/^GET \/v2\/members\?/);
    expect(lookup).toContain("includeArchived=true");
    expect(lookup).toContain("includeInactive=true");
  });

  it("reads team members by userId, as getTeamMembers answers", async () => {
    expect(await client().getTeamMembers("t1")).toEqual([
      { userId: "m1", isTeamAdmin: false, addedBy: "admin" },
    ]);
  });

  it("on a 401 (token revoked or credentials rotated) fetches one fresh token and tries again", async () => {
    const c = client();
    await c.listMembers();
    const before = tokenRequests;
    issued = new Set();
    const members = await c.listMembers();
    expect(members).toHaveLength(3);
    expect(tokenRequests).toBe(before + 1);
  });

  it("refuses an answer without a field Sigma marks required, naming the operation and the field", async () => {
    memberShape = "no-homeFolderId";
    const error = await client()
      .listMembers()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SigmaShapeError);
    expect(String(error)).toMatch(/listMembers.*homeFolderId/);
  });

  it("throws SigmaApiError with Sigma's code and request id", async () => {
    const error = await client()
      .getMember("missing")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SigmaApiError);
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND", requestId: "r4" });
  });
});
