import { API_ERROR_CODES, isApiErrorCode, ZErrorResponseSchema } from "@portal/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let client: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  client = await headersFor(t, "client");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

describe("one error vocabulary (packages/contracts error-codes.ts)", () => {
  it("lists every code the running Better Auth can answer with", () => {
    const betterAuthCodes = Object.keys((t.auth as unknown as { $ERROR_CODES: object }).$ERROR_CODES);
    expect(betterAuthCodes.length).toBeGreaterThan(40);
    expect(betterAuthCodes.filter((code) => !isApiErrorCode(code))).toEqual([]);
  });

  it("has no code twice and only upper-case words", () => {
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
    for (const code of API_ERROR_CODES) expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it("answers every kind of refusal with a body whose code is on the list", async () => {
    const json = { origin: ORIGIN, "content-type": "application/json" };
    const answers = await Promise.all([
      t.app.inject({ method: "GET", url: "/api/%zz" }),
      t.app.inject({ method: "GET", url: `/api/admin/clients/${"x".repeat(5000)}`, headers: client }),
      t.app.inject({ method: "GET", url: "/api/me/workbooks" }),
      t.app.inject({ method: "GET", url: "/api/admin/clients", headers: client }),
      t.app.inject({ method: "GET", url: "/api/no-such-route", headers: client }),
      t.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: json,
        payload: { email: "nobody@example.com", password: "wrong-password-123" },
      }),
      t.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        headers: { origin: ORIGIN, "content-type": "text/plain" },
        payload: "hello",
      }),
      t.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        headers: json,
        payload: { token: "not-a-token", newPassword: "a-long-enough-password-1" },
      }),
      t.app.inject({
        method: "PATCH",
        url: "/api/me/profile",
        headers: { ...client, "content-type": "application/json" },
        payload: "{",
      }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, answer.body).toBeLessThan(500);
      const body = ZErrorResponseSchema.parse(answer.json());
      expect(body.code, `${answer.statusCode} ${answer.body}`).toBeDefined();
      expect(isApiErrorCode(body.code), answer.body).toBe(true);
    }
    const codes = answers.map((answer) => (answer.json() as { code: string }).code);
    expect(codes[0]).toBe("BAD_URL");
    expect(codes[2]).toBe("UNAUTHENTICATED");
    expect(codes[5]).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(codes[7]).toBe("INVALID_TOKEN");
  });
});
