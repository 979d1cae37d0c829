import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog, passkeys, provisioningRequests, users } from "../src/db/schema.ts";
import { cookieHeader, createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { createPasskey } from "./support/webauthn.ts";

/**
 * Better Auth's account writes obey the portal's contracts (issue 24, build point 6): the profile's name through
 * POST /api/auth/update-user and the passkey endpoints. Bad input is a 400 with the portal's error body and
 * changes nothing; a good name is saved trimmed, audited once and sent to the BI service only when it changed.
 */
let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "100000" });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

/** A person signed in; a delegate's BI member is named by their account, so a new name is sent to the BI service. */
async function signedIn(role: "delegate" | "author" | "client", name = "Ann Example") {
  const person = await t.createUser(role, { name });
  return { ...person, cookie: await t.sessionCookie(person.email, person.password) };
}

function send(url: string, cookie: string, payload: string, contentType = "application/json") {
  return t.app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, "content-type": contentType, ...(cookie && { cookie }) },
    payload,
  });
}

const updateUser = (cookie: string, body: unknown) =>
  send("/api/auth/update-user", cookie, JSON.stringify(body));

async function nameOf(userId: string) {
  const [row] = await database.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name;
}

async function outboxRows(userId: string) {
  const [row] = await database.db
    .select({ n: count() })
    .from(provisioningRequests)
    .where(eq(provisioningRequests.userId, userId));
  return row!.n;
}

async function nameAudits(userId: string) {
  return database.db
    .select({ outcome: auditLog.outcome, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.targetId, userId), eq(auditLog.action, "user.name_changed")));
}

function expectRefused(res: { statusCode: number; json: () => unknown; body: string }, message?: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({
    error: expect.any(String),
    code: "INVALID_INPUT",
    requestId: expect.any(String),
  });
  if (message) expect((res.json() as { error: string }).error).toBe(message);
}

describe("POST /api/auth/update-user", () => {
  const refused: [string, unknown, string][] = [
    ["null", { name: null }, "Name is required."],
    ["true", { name: true }, "Name must be text."],
    ["false", { name: false }, "Name must be text."],
    ["0", { name: 0 }, "Name must be text."],
    ["a number", { name: 42 }, "Name must be text."],
    ["an array", { name: [] }, "Name must be text."],
    ["an array of text", { name: ["Ann"] }, "Name must be text."],
    ["an object", { name: {} }, "Name must be text."],
    ["empty text", { name: "" }, "Name is required."],
    ["blank text", { name: "   " }, "Name is required."],
    ["101 characters", { name: "x".repeat(101) }, "Name must be at most 100 characters."],
    // Control characters, line breaks and broken emoji are refused for every /api/auth field, before the
    // contract (plugins/request-bodies.ts, which calls Better Auth's `name` "Full name").
    ["a line break", { name: "Ann\nLee" }, "Full name must be on one line (no line breaks)."],
    ["a control character", { name: "Ann\u0007" }, "Full name must not contain control characters."],
    [
      "a broken emoji",
      { name: "Ann \uD83D" },
      "Full name contains an invalid character (a broken emoji or symbol).",
    ],
    ["no name", {}, "Name is required."],
    ["a role", { name: "Ann", role: "admin" }, "Unknown field: role."],
    ["an email", { name: "Ann", email: "other@example.com" }, "Unknown field: email."],
    ["twoFactorEnabled", { name: "Ann", twoFactorEnabled: false }, "Unknown field: twoFactorEnabled."],
    ["an image", { name: "Ann", image: "https://tracker.example/pixel.png" }, "Unknown field: image."],
    ["unknown fields", { name: "Ann", a: 1, b: 2 }, "Unknown fields: a, b."],
    ["a list for a body", [{ name: "Ann" }], "The request body must be a JSON object."],
  ];

  it.each(refused)("refuses %s (400, nothing saved or queued)", async (_, body, message) => {
    const person = await signedIn("delegate");
    expectRefused(await updateUser(person.cookie, body), message);
    expect(await nameOf(person.userId)).toBe("Ann Example");
    expect(await outboxRows(person.userId)).toBe(0);
    expect(await nameAudits(person.userId)).toEqual([]);
  });

  it("takes JSON only: a form or multipart body is refused (415) and changes nothing", async () => {
    const person = await signedIn("delegate");
    const boundary = "accountwrites";
    for (const [payload, type] of [
      ["name=++Ann+Form++", "application/x-www-form-urlencoded"],
      [
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAnn\r\n--${boundary}--\r\n`,
        `multipart/form-data; boundary=${boundary}`,
      ],
    ]) {
      const res = await send("/api/auth/update-user", person.cookie, payload!, type);
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", requestId: expect.any(String) });
    }
    expect(await nameOf(person.userId)).toBe("Ann Example");
    expect(await outboxRows(person.userId)).toBe(0);
  });

  it("answers someone signed out 401 before looking at the body", async () => {
    const res = await updateUser("", { name: null });
    expect(res.statusCode, res.body).toBe(401);
  });

  it("saves a good name trimmed, audits it with before and after, and queues the BI member once", async () => {
    const person = await signedIn("delegate");
    const res = await updateUser(person.cookie, { name: "  Ann Lee  " });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: true });
    expect(await nameOf(person.userId)).toBe("Ann Lee");
    expect(await nameAudits(person.userId)).toEqual([
      { outcome: "success", before: { name: "Ann Example" }, after: { name: "Ann Lee" } },
    ]);
    const queued = await database.db
      .select({ kind: provisioningRequests.kind, payload: provisioningRequests.payload })
      .from(provisioningRequests)
      .where(eq(provisioningRequests.userId, person.userId));
    expect(queued).toEqual([
      { kind: "member.upsert", payload: expect.objectContaining({ firstName: "Ann", lastName: "Lee" }) },
    ]);
    // The session shows the new name at once.
    const session = await t.app.inject({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { cookie: person.cookie },
    });
    expect(session.json().user.name).toBe("Ann Lee");

    // The same name again (spelt with spaces, too) changes nothing: no second audit row, nothing queued.
    for (const name of ["Ann Lee", " Ann Lee "]) {
      const again = await updateUser(person.cookie, { name });
      expect(again.statusCode, again.body).toBe(200);
    }
    expect(await nameAudits(person.userId)).toHaveLength(1);
    expect(await outboxRows(person.userId)).toBe(1);
  });

  it("sends a self-registered author's new name to the BI service as their name and role", async () => {
    const person = await signedIn("author");
    expect((await updateUser(person.cookie, { name: "Ann Author" })).statusCode).toBe(200);
    const queued = await database.db
      .select({ payload: provisioningRequests.payload })
      .from(provisioningRequests)
      .where(eq(provisioningRequests.userId, person.userId));
    expect(queued).toEqual([{ payload: { name: "Ann Author", email: person.email, role: "author" } }]);
  });

  it("does not queue a client, whose BI member is named by the client record, but audits the change", async () => {
    const person = await signedIn("client");
    expect((await updateUser(person.cookie, { name: "Ann Client" })).statusCode).toBe(200);
    expect(await nameOf(person.userId)).toBe("Ann Client");
    expect(await nameAudits(person.userId)).toHaveLength(1);
    expect(await outboxRows(person.userId)).toBe(0);
  });
});

describe("the passkey endpoints", () => {
  async function withPasskey() {
    const person = await signedIn("client");
    const id = crypto.randomUUID();
    await database.db.insert(passkeys).values({
      id,
      name: "Laptop",
      publicKey: "AAAA",
      userId: person.userId,
      credentialID: `cred-${id}`,
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    });
    return { ...person, id };
  }
  const passkeyName = async (id: string) =>
    (await database.db.select({ name: passkeys.name }).from(passkeys).where(eq(passkeys.id, id)))[0]?.name;

  it("refuses a bad passkey name or id on update-passkey, and saves a good name trimmed", async () => {
    const person = await withPasskey();
    const cases: [unknown, string][] = [
      [{ id: person.id, name: null }, "Passkey name is required."],
      [{ id: person.id, name: "   " }, "Passkey name is required."],
      [{ id: person.id, name: 7 }, "Passkey name must be text."],
      [{ id: person.id, name: "x".repeat(101) }, "Passkey name must be at most 100 characters."],
      [{ id: person.id, name: "a\u001bb" }, "Full name must not contain control characters."],
      [{ id: person.id, name: "Phone", userId: "someone-else" }, "Unknown field: userId."],
      [{ id: "", name: "Phone" }, "Passkey id is required."],
      [{ id: 5, name: "Phone" }, "Passkey id must be text."],
      [{ id: ["x"], name: "Phone" }, "Passkey id must be text."],
      [{ id: "x".repeat(256), name: "Phone" }, "Passkey id must be at most 255 characters."],
      [{ name: "Phone" }, "Passkey id is required."],
    ];
    for (const [body, message] of cases) {
      expectRefused(await t.post("/api/auth/passkey/update-passkey", person.cookie, body), message);
    }
    expect(await passkeyName(person.id)).toBe("Laptop");
    const renamed = await t.post("/api/auth/passkey/update-passkey", person.cookie, {
      id: person.id,
      name: "  Phone  ",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await passkeyName(person.id)).toBe("Phone");
  });

  it("refuses a bad id on delete-passkey and keeps the passkey", async () => {
    const person = await withPasskey();
    for (const body of [
      {},
      { id: null },
      { id: {} },
      { id: "" },
      { id: person.id, extra: true },
      [person.id],
    ]) {
      expectRefused(await t.post("/api/auth/passkey/delete-passkey", person.cookie, body));
    }
    expect(await passkeyName(person.id)).toBe("Laptop");
  });

  it("refuses malformed registrations and names, and never answers 5xx to an unreadable attestation", async () => {
    const person = await signedIn("client");
    const register = async (body: (response: Record<string, unknown>) => unknown) => {
      const offered = await t.app.inject({
        method: "GET",
        url: "/api/auth/passkey/generate-register-options",
        headers: { origin: ORIGIN, cookie: person.cookie },
      });
      expect(offered.statusCode, offered.body).toBe(200);
      const { response } = createPasskey(offered.json(), ORIGIN);
      return t.post(
        "/api/auth/passkey/verify-registration",
        `${person.cookie}; ${cookieHeader(offered)}`,
        body(response as Record<string, unknown>),
      );
    };
    expectRefused(
      await register((response) => ({ response, name: "  " })),
      "Passkey name must not be blank (leave it out to keep the default).",
    );
    expectRefused(await register((response) => ({ response, name: 3 })), "Passkey name must be text.");
    expectRefused(
      await register((response) => ({ response, name: "x".repeat(101) })),
      "Passkey name must be at most 100 characters.",
    );
    expectRefused(
      await register((response) => ({ response, name: "Key", role: "admin" })),
      "Unknown field: role.",
    );
    expectRefused(
      await register(() => ({ response: null })),
      "The passkey's answer is malformed. Try again.",
    );
    expectRefused(await register((response) => ({ response: { ...response, id: {} } })));
    expectRefused(await register((response) => ({ response: { ...response, response: "x" } })));
    // Well-formed base64url that is not an attestation: the plugin's library throws; the answer is still a 400.
    const unreadable = await register((response) => ({
      response: { ...response, response: { ...(response.response as object), attestationObject: "AAAA" } },
    }));
    expect(unreadable.statusCode, unreadable.body).toBe(400);
    expect(unreadable.json()).toMatchObject({
      code: "FAILED_TO_VERIFY_REGISTRATION",
      requestId: expect.any(String),
    });
    const [{ n } = { n: -1 }] = await database.db
      .select({ n: count() })
      .from(passkeys)
      .where(eq(passkeys.userId, person.userId));
    expect(n).toBe(0);

    // A good one, its name trimmed.
    const added = await register((response) => ({ response, name: "  Work laptop  " }));
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().name).toBe("Work laptop");
  });

  it("refuses a malformed passkey sign-in before Better Auth looks the credential up", async () => {
    const offered = await t.app.inject({
      method: "GET",
      url: "/api/auth/passkey/generate-authenticate-options",
      headers: { origin: ORIGIN },
    });
    expect(offered.statusCode).toBe(200);
    for (const response of [
      null,
      {},
      { id: {} },
      { id: "abc", rawId: "abc", type: "public-key", response: [] },
    ]) {
      expectRefused(
        await t.post("/api/auth/passkey/verify-authentication", cookieHeader(offered), { response }),
      );
    }
  });
});
