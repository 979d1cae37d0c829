/**
 * The portal's embed URLs checked against Sigma's documented contract, independently of the minting
 * code (node:crypto, not jose), and against the built-in analytics server for tampering.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { startAnalyticsServer, type AnalyticsServer } from "@portal/analytics";
import { DEMO_CLIENTS, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";

const b64url = (s: string) => Buffer.from(s, "base64url");

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let analytics: AnalyticsServer;
const [olivia, marcus] = DEMO_CLIENTS;
const [portfolio, tax] = DEMO_WORKBOOKS;

beforeAll(async () => {
  const port = await freePort();
  database = await createTestDatabase();
  t = await createTestApp(database, { ANALYTICS_PORT: String(port), AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  await seedDemoData(t.auth, database.db);
  // Marcus sees only the Tax Center.
  await database.db.execute(sql`delete from client_workbooks cw using clients c, workbooks w
    where cw.c_id = c.c_id and cw.workbook_id = w.id and c.client_id = ${marcus.clientId} and w.workbook_name <> ${tax.workbookName}`);
  analytics = await startAnalyticsServer({
    logger: false,
    buildFrontEnd: false,
    env: {
      DATA_DIR: t.config.dataDir,
      ANALYTICS_PORT: String(port),
      ANALYTICS_LOG_LEVEL: "silent",
      ANALYTICS_DEMO_SIZE: "2",
      ANALYTICS_ALLOWED_PARENT_ORIGINS: ORIGIN,
    },
  });
}, 180_000);
afterAll(async () => {
  await analytics?.close();
  await t.app.close();
  await database.close();
});

async function mintFor(email: string, password: string, workbookId: string) {
  const headers = { cookie: await t.sessionCookie(email, password), origin: ORIGIN };
  const res = await t.app.inject({
    method: "POST",
    url: "/api/sigma/provision-and-embed",
    headers,
    payload: { workbookId },
  });
  expect(res.statusCode).toBe(200);
  return new URL(res.json().embedUrl as string);
}

describe("Sigma's documented embed contract", () => {
  it("URL shape, JWT header, claims, types, lifetime and HS256 signature", async () => {
    const url = await mintFor(olivia.email, olivia.password, portfolio.workbookName);
    // <embed base>/workbook/<Name>-<workbookUrlId>?:jwt=<token>&:embed=true
    expect(url.pathname).toMatch(/^\/local\/workbook\/[^/]+-[A-Za-z0-9]{22,24}$/);
    expect(url.searchParams.get(":embed")).toBe("true");
    const token = url.searchParams.get(":jwt")!;
    const [h, p, s] = token.split(".");
    const header = JSON.parse(b64url(h!).toString("utf8"));
    const claims = JSON.parse(b64url(p!).toString("utf8"));
    const credentials = await loadOrCreateLocalSigmaCredentials(t.config.dataDir);

    expect(header.alg).toBe("HS256");
    expect(header.kid).toBe(credentials.embedClientId);
    const expected = createHmac("sha256", Buffer.from(credentials.embedSecret, "utf8"))
      .update(`${h}.${p}`)
      .digest();
    expect(timingSafeEqual(expected, b64url(s!))).toBe(true);

    expect(typeof claims.sub).toBe("string");
    expect(claims.sub).toBe(olivia.email);
    expect(claims.sub).not.toMatch(/[\s_]/);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isInteger(claims.iat) && Number.isInteger(claims.exp)).toBe(true);
    expect(claims.exp - claims.iat).toBe(t.config.sigma.embedSessionSeconds);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(30 * 24 * 3600);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60);
    expect(["View", "Act", "Analyze", "Build"]).toContain(claims.account_type);
    expect(Array.isArray(claims.teams) && claims.teams.every((x: unknown) => typeof x === "string")).toBe(
      true,
    );
    expect(Object.values(claims.user_attributes).every((v) => typeof v === "string")).toBe(true);
    expect(claims.user_attributes).toEqual({ client_id: olivia.clientId, client_ids: "" });
    expect(Object.keys(claims).sort()).toEqual(
      [
        "account_type",
        "exp",
        "first_name",
        "iat",
        "jti",
        "last_name",
        "sub",
        "teams",
        "user_attributes",
      ].sort(),
    );
  });
});

describe("tampering with a minted URL gains nothing", () => {
  it("another workbook in the path is refused (EACCES), and a used URL does not work twice (EINVAL)", async () => {
    const url = await mintFor(marcus.email, marcus.password, tax.workbookName);
    const tampered = new URL(url.toString().replace(tax.workbookName, portfolio.workbookName));
    const refused = await fetch(tampered);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("EACCES");

    const fresh = await mintFor(marcus.email, marcus.password, tax.workbookName);
    const first = await fetch(fresh);
    expect(first.status).toBe(200);
    const second = await fetch(fresh);
    expect(second.status).toBe(401);
    expect(await second.text()).toContain("EINVAL");
  });

  it("changing the claims breaks the signature (EINVAL)", async () => {
    const url = await mintFor(marcus.email, marcus.password, tax.workbookName);
    const [h, p, s] = url.searchParams.get(":jwt")!.split(".");
    const claims = JSON.parse(b64url(p!).toString("utf8"));
    claims.user_attributes = { client_id: olivia.clientId };
    claims.teams = DEMO_WORKBOOKS.map((w) => w.teamName);
    url.searchParams.set(":jwt", `${h}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${s}`);
    const res = await fetch(url);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("EINVAL");
  });
});
