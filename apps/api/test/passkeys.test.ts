import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog, passkeys, sessions } from "../src/db/schema.ts";
import { cookieHeader, createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { assertPasskey, createPasskey, type SoftwarePasskey } from "./support/webauthn.ts";

/**
 * Passkeys (issue 24) through the portal's API with a software authenticator that signs as a real one does:
 * adding, naming, signing in (a complete two-step sign-in the admin gate accepts), removing, the last second
 * step kept, the account lock and the audit trail.
 */
let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  // Few failures before the account lock, to reach it quickly; admins must have a second step.
  t = await createTestApp(database, {
    AUTH_IP_LIMIT_PER_MINUTE: "1000",
    SIGNIN_MAX_FAILURES: "3",
    MFA_REQUIRED_ROLES: "admin",
  });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

/** Cookie headers joined: a later cookie of the same name replaces the earlier one. */
function withCookies(...headers: string[]): string {
  const jar = new Map<string, string>();
  for (const header of headers) {
    for (const pair of header.split("; ").filter(Boolean)) jar.set(pair.split("=")[0]!, pair);
  }
  return [...jar.values()].join("; ");
}

function get(url: string, cookie = "") {
  return t.app.inject({ method: "GET", url, headers: { origin: ORIGIN, ...(cookie && { cookie }) } });
}

/** Adds a passkey as the profile does: options, the authenticator, then verification with a name. */
async function addPasskey(cookie: string, name: string, options: { userVerified?: boolean } = {}) {
  const offered = await get("/api/auth/passkey/generate-register-options", cookie);
  expect(offered.statusCode).toBe(200);
  const { passkey, response } = createPasskey(offered.json(), ORIGIN, options);
  const verified = await t.post(
    "/api/auth/passkey/verify-registration",
    withCookies(cookie, cookieHeader(offered)),
    { response, name },
  );
  return { passkey, verified };
}

/** Signs in with a passkey as /login does: options without a session, the authenticator, verification. */
async function signInWithPasskey(
  passkey: SoftwarePasskey,
  tamper?: (response: Record<string, unknown>) => void,
) {
  const offered = await get("/api/auth/passkey/generate-authenticate-options");
  expect(offered.statusCode).toBe(200);
  const response = assertPasskey(passkey, offered.json(), ORIGIN);
  tamper?.(response);
  return t.post("/api/auth/passkey/verify-authentication", cookieHeader(offered), { response });
}

async function auditOf(userId: string, actions: string[]) {
  const rows = await database.db
    .select({ action: auditLog.action, outcome: auditLog.outcome, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.actorUserId, userId), inArray(auditLog.action, actions)))
    .orderBy(auditLog.id);
  return rows.map((r) => `${r.action}:${r.outcome}`);
}

describe("a client's passkey", () => {
  it("is added with a name, listed, signs the client in on its own, and is renamed and removed", async () => {
    const { email, password, userId } = await t.createUser("client");
    const cookie = await t.sessionCookie(email, password);
    const { passkey, verified } = await addPasskey(cookie, "  Work laptop  ");
    expect(verified.statusCode).toBe(200);

    const listed = await get("/api/auth/passkey/list-user-passkeys", cookie);
    expect(listed.statusCode).toBe(200);
    const [row] = listed.json() as { id: string; name: string; createdAt: string }[];
    expect(row).toMatchObject({ name: "Work laptop", lastUsedAt: null });

    const signedIn = await signInWithPasskey(passkey);
    expect(signedIn.statusCode).toBe(200);
    const passkeyCookie = cookieHeader(signedIn);
    expect((await get("/api/me/workbooks", passkeyCookie)).statusCode).toBe(200);
    const session = await get("/api/auth/get-session", passkeyCookie);
    expect(session.json()).toMatchObject({
      session: { signInMethod: "passkey" },
      secondStep: { status: "enrolled", requiredForRole: false },
    });
    // The profile's sessions say how each was reached.
    const listedSessions = (await get("/api/me/sessions", passkeyCookie)).json() as {
      current: boolean;
      sign_in_method: string | null;
    }[];
    expect(listedSessions.find((s) => s.current)?.sign_in_method).toBe("passkey");
    expect(listedSessions.find((s) => !s.current)?.sign_in_method).toBe("password_passkey"); // the password, then the passkey added
    const [used] = await database.db.select().from(passkeys).where(eq(passkeys.id, row!.id));
    expect(used!.lastUsedAt).toBeInstanceOf(Date);
    expect(used!.counter).toBe(1);
    // The list the profile shows carries when each passkey was last used.
    const relisted = (await get("/api/auth/passkey/list-user-passkeys", cookie)).json() as {
      lastUsedAt: string;
    }[];
    expect(relisted[0]!.lastUsedAt).toBe(used!.lastUsedAt!.toISOString());

    const renamed = await t.post("/api/auth/passkey/update-passkey", cookie, { id: row!.id, name: "Phone" });
    expect(renamed.statusCode).toBe(200);
    const removed = await t.post("/api/auth/passkey/delete-passkey", cookie, { id: row!.id });
    expect(removed.statusCode).toBe(200);
    expect(await database.db.select().from(passkeys).where(eq(passkeys.userId, userId))).toHaveLength(0);

    // A removed passkey no longer signs anyone in.
    const refused = await signInWithPasskey(passkey);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: "PASSKEY_NOT_FOUND" });
    expect(refused.headers["set-cookie"] ?? "").not.toContain("portal.session_token=");

    expect(
      await auditOf(userId, ["auth.passkey.added", "auth.passkey.renamed", "auth.passkey.removed"]),
    ).toEqual(["auth.passkey.added:success", "auth.passkey.renamed:success", "auth.passkey.removed:success"]);
    const signIns = await database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, "auth.sign_in")));
    expect(signIns.map((r) => (r.details as { signInMethod?: string }).signInMethod)).toContain("passkey");
  });

  it("is refused without user verification (no PIN or biometric): neither added nor accepted", async () => {
    const { email, password } = await t.createUser("client");
    const cookie = await t.sessionCookie(email, password);
    const { verified } = await addPasskey(cookie, "Key without PIN", { userVerified: false });
    expect(verified.statusCode).toBe(400);
    expect(verified.json()).toMatchObject({ code: "PASSKEY_NOT_VERIFIED" });
    expect((await get("/api/auth/passkey/list-user-passkeys", cookie)).json()).toEqual([]);

    const { passkey } = await addPasskey(cookie, "Laptop");
    passkey.userVerified = false;
    const refused = await signInWithPasskey(passkey);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "PASSKEY_NOT_VERIFIED" });
    expect(refused.headers["set-cookie"] ?? "").not.toContain("portal.session_token=");
  });

  it("counts failed passkey attempts in the account's lock, like wrong passwords", async () => {
    const { email, password, userId } = await t.createUser("client");
    const cookie = await t.sessionCookie(email, password);
    const { passkey } = await addPasskey(cookie, "Laptop");
    const badSignature = (response: Record<string, unknown>) => {
      (response.response as { signature: string }).signature =
        Buffer.from("not a signature").toString("base64url");
    };
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) answers.push((await signInWithPasskey(passkey, badSignature)).statusCode);
    expect(answers.slice(0, 3).every((status) => status === 400)).toBe(true);
    expect(answers[3]).toBe(429);
    // The right passkey is locked out too until the window ends, and so is the password.
    const locked = await signInWithPasskey(passkey);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: "TOO_MANY_FAILED_ATTEMPTS" });
    expect((await t.signIn(email, password)).statusCode).toBe(429);
    expect(await auditOf(userId, ["auth.sign_in"])).toEqual([
      "auth.sign_in:success", // the password sign-in that added the passkey
      "auth.sign_in:failure",
      "auth.sign_in:failure",
      "auth.sign_in:failure",
      "auth.sign_in:rate_limited",
      "auth.sign_in:rate_limited",
    ]); // (the refused password names the account by its email only)
  });
});

describe("an admin whose second step is a passkey", () => {
  it("sets it up after the password, then signs in with the passkey alone; the password alone makes no session", async () => {
    const { email, password, userId } = await t.createUser("admin");
    const cookie = await t.sessionCookie(email, password);
    // Enrolment first: the back office refuses, adding a passkey is allowed.
    expect((await get("/api/admin/workbooks", cookie)).json()).toMatchObject({
      code: "MFA_ENROLLMENT_REQUIRED",
    });
    expect((await get("/api/auth/get-session", cookie)).json()).toMatchObject({
      secondStep: { status: "required", requiredForRole: true },
    });
    const { passkey, verified } = await addPasskey(cookie, "Office key");
    expect(verified.statusCode).toBe(200);
    // The password, then the passkey just added: this session took two steps.
    expect((await get("/api/admin/workbooks", cookie)).statusCode).toBe(200);
    const [current] = await database.db
      .select({ method: sessions.signInMethod })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    expect(current!.method).toBe("password_passkey");

    // Next time: the password alone is turned down with the reason, and leaves no session behind.
    const before = (await database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
    const passwordOnly = await t.signIn(email, password);
    expect(passwordOnly.statusCode).toBe(403);
    expect(passwordOnly.json()).toMatchObject({ code: "PASSKEY_SIGN_IN_REQUIRED" });
    expect((await database.db.select().from(sessions).where(eq(sessions.userId, userId))).length).toBe(
      before,
    );

    const signedIn = await signInWithPasskey(passkey);
    expect(signedIn.statusCode).toBe(200);
    expect((await get("/api/admin/workbooks", cookieHeader(signedIn))).statusCode).toBe(200);
  });

  it("cannot remove the last passkey; with two, one goes, and two removals at once leave one", async () => {
    const { email, password, userId } = await t.createUser("admin");
    const cookie = await t.sessionCookie(email, password);
    await addPasskey(cookie, "First");
    const [only] = await database.db.select().from(passkeys).where(eq(passkeys.userId, userId));
    const refused = await t.post("/api/auth/passkey/delete-passkey", cookie, { id: only!.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "LAST_SECOND_STEP" });
    expect(await database.db.select().from(passkeys).where(eq(passkeys.userId, userId))).toHaveLength(1);

    await addPasskey(cookie, "Second");
    const both = await database.db.select().from(passkeys).where(eq(passkeys.userId, userId));
    expect(both).toHaveLength(2);
    const answers = await Promise.all(
      both.map((p) => t.post("/api/auth/passkey/delete-passkey", cookie, { id: p.id })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403]);
    expect(await database.db.select().from(passkeys).where(eq(passkeys.userId, userId))).toHaveLength(1);
    expect(await auditOf(userId, ["auth.passkey.removed"])).toEqual(
      expect.arrayContaining(["auth.passkey.removed:denied", "auth.passkey.removed:success"]),
    );
  });

  it("another person's passkey can be neither renamed nor removed", async () => {
    const owner = await t.createUser("client");
    const ownerCookie = await t.sessionCookie(owner.email, owner.password);
    await addPasskey(ownerCookie, "Owner's");
    const [theirs] = await database.db.select().from(passkeys).where(eq(passkeys.userId, owner.userId));
    const other = await t.createUser("client");
    const otherCookie = await t.sessionCookie(other.email, other.password);
    const removed = await t.post("/api/auth/passkey/delete-passkey", otherCookie, { id: theirs!.id });
    const renamed = await t.post("/api/auth/passkey/update-passkey", otherCookie, {
      id: theirs!.id,
      name: "Mine",
    });
    expect(removed.statusCode).toBeGreaterThanOrEqual(400);
    expect(removed.statusCode).toBeLessThan(500);
    expect(renamed.statusCode).toBeGreaterThanOrEqual(400);
    expect(renamed.statusCode).toBeLessThan(500);
    const [still] = await database.db.select().from(passkeys).where(eq(passkeys.id, theirs!.id));
    expect(still!.name).toBe("Owner's");
  });
});
