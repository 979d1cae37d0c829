import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SigmaApiError, SigmaRestClient, ZSigmaMemberSchema } from "../src/index.ts";

// A small real HTTP server that answers like Sigma: a throttled token endpoint, paged members, errors.
let server: Server;
let baseUrl: string;
const calls: string[] = [];
let tokenRequests = 0;

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

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
      if (form.get("client_secret") !== "s3cret" || form.get("grant_type") !== "client_credentials") {
        res.statusCode = 401;
        res.end(JSON.stringify({ requestId: "r2", message: "bad credentials", code: "UNAUTHORIZED" }));
        return;
      }
      res.end(
        JSON.stringify({ access_token: "tok", refresh_token: "r", token_type: "bearer", expires_in: 3600 }),
      );
      return;
    }
    if (req.headers.authorization !== "Bearer tok") {
      res.statusCode = 401;
      res.end(JSON.stringify({ requestId: "r3", message: "no token", code: "UNAUTHORIZED" }));
      return;
    }
    if (url.pathname === "/v2/members") {
      const page = url.searchParams.get("page");
      const member = (i: number) => ({
        organizationId: "o",
        memberId: `m${i}`,
        memberType: "view",
        firstName: "F",
        lastName: "L",
        email: `u${i}@example.com`,
        userKind: "embed",
        isArchived: false,
        isInactive: false,
        createdAt: "2025-01-01T00:00:00Z",
        updatedAt: "2025-01-01T00:00:00Z",
      });
      res.end(
        JSON.stringify(
          page
            ? { entries: [member(3)], hasMore: false, total: 3, nextPage: null }
            : { entries: [member(1), member(2)], hasMore: true, total: 3, nextPage: "p2" },
        ),
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

describe("SigmaRestClient", () => {
  it("retries a throttled token request, caches the token and follows nextPage", async () => {
    const sleeps: number[] = [];
    const client = new SigmaRestClient({
      apiBaseUrl: baseUrl,
      clientId: "id",
      clientSecret: "s3cret",
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const members = await client.listAll(ZSigmaMemberSchema, "/v2/members", { limit: 2 });
    expect(members.map((m) => m.memberId)).toEqual(["m1", "m2", "m3"]);
    expect(sleeps).toEqual([500]);
    expect(tokenRequests).toBe(2);
    expect(calls).toContain("GET /v2/members?limit=2&page=p2");
    await client.findMemberByEmail("u2@example.com");
    expect(tokenRequests).toBe(2);
  });

  it("throws SigmaApiError with Sigma's code and request id", async () => {
    const client = new SigmaRestClient({ apiBaseUrl: baseUrl, clientId: "id", clientSecret: "s3cret" });
    const error = await client.getMember("missing").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SigmaApiError);
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND", requestId: "r4" });
  });
});
