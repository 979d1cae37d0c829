/**
 * `npm run sigma:check` against the built-in analytics server (every check passes), against deliberately
 * broken set-ups (each problem named, with its fix), and as the command an operator runs.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startAnalyticsServer, type AnalyticsServer } from "@portal/analytics";
import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { loadOrCreateLocalSigmaCredentials, SigmaRestClient } from "@portal/sigma";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type AppConfig } from "../src/config.ts";
import { createPglite, fromPglite, fromPostgres, type DatabaseHandle } from "../src/db/client.ts";
import { workbooks } from "../src/db/schema.ts";
import { checkSigmaOrg, formatChecklist, type CheckResult } from "../src/sigma/check.ts";
import { createEmbedder } from "../src/sigma/embedder.ts";
import { createSigmaRestClient } from "../src/sigma/provisioning.ts";
import { createScratchDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";
import { startSigmaStandIn } from "./support/sigma-standin/index.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");

let dataDir: string;
let analyticsPort: number;
let analytics: AnalyticsServer;
let database: DatabaseHandle;
/** With TEST_DATABASE_URL, the scratch database the command line is pointed at too. */
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let env: Record<string, string>;
let config: AppConfig;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "sigma-check-"));
  analyticsPort = await freePort();
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL, "sigma_check");
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
    database = fromPostgres(scratch.url);
  } else {
    database = fromPglite(await createPglite(path.join(dataDir, "pglite")));
  }
  await database.migrate();
  // The demo catalogue: the built-in server has these workbooks, shared with these teams.
  await database.db
    .insert(workbooks)
    .values(DEMO_WORKBOOKS.map((w) => ({ workbookName: w.workbookName, teamName: w.teamName })));
  env = {
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    ANALYTICS_PORT: String(analyticsPort),
    BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
    DEMO_DATA: "off",
    LOG_LEVEL: "silent",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  config = loadConfig(env);
  analytics = await startAnalyticsServer({
    logger: false,
    buildFrontEnd: false,
    env: {
      DATA_DIR: dataDir,
      ANALYTICS_PORT: String(analyticsPort),
      ANALYTICS_LOG_LEVEL: "silent",
      ANALYTICS_DEMO_SIZE: "2",
    },
  });
}, 180_000);

afterAll(async () => {
  await analytics?.close();
  await database?.close().catch(() => undefined);
  await dropDatabase?.();
});

const outcomes = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.name, r.outcome]));
const byName = (results: CheckResult[], start: string) => results.find((r) => r.name.startsWith(start))!;

async function check(overrides: Partial<Parameters<typeof checkSigmaOrg>[0]> = {}, cfg = config) {
  return checkSigmaOrg({
    config: cfg,
    db: database.db,
    client: await createSigmaRestClient(cfg),
    embedder: createEmbedder(cfg),
    checkEmail: "sigma-check@meridian-advisory.example",
    ...overrides,
  });
}

/**
 * The command as an operator runs it. Asynchronous: the analytics server it talks to runs in this process,
 * so a synchronous spawn would leave it unable to answer.
 */
function run(extraEnv: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [tsx, path.join(root, "apps/api/src/scripts/sigma-check.ts")],
      {
        cwd: root,
        encoding: "utf8",
        // tsx compiles the command and PGlite opens the database: up to a minute on a busy machine.
        timeout: 120_000,
        env: { PATH: process.env.PATH, ...env, ...extraEnv },
      },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

describe("sigma:check", () => {
  it("passes every check against the built-in analytics server", { timeout: 60_000 }, async () => {
    const results = await check();
    expect(results.filter((r) => r.outcome !== "pass")).toEqual([]);
    expect(results.map((r) => r.name)).toEqual([
      "API credentials (SIGMA_API_CLIENT_ID, SIGMA_API_CLIENT_SECRET)",
      "Account types (SIGMA_ACCOUNT_TYPES)",
      "Row-security user attributes",
      "Teams",
      "Catalogue workbooks exist",
      "Workbooks shared with their teams",
      "Embed credentials (SIGMA_EMBED_CLIENT_ID, SIGMA_EMBED_SECRET)",
    ]);
    expect(formatChecklist(results)).toMatch(/All checks passed\.$/);
  });

  it("names wrong API credentials and a wrong embed secret, with the fix", { timeout: 60_000 }, async () => {
    const local = await loadOrCreateLocalSigmaCredentials(dataDir);
    const results = await check({
      client: new SigmaRestClient({
        apiBaseUrl: config.sigma.apiBaseUrl,
        clientId: local.apiClientId,
        clientSecret: "not-the-secret",
        retryDelaysMs: [],
      }),
      embedder: createEmbedder({
        ...config,
        sigma: { ...config.sigma, embed: { clientId: local.embedClientId, secret: "not-the-embed-secret" } },
      }),
    });
    const credentials = byName(results, "API credentials");
    expect(credentials.outcome).toBe("fail");
    expect(credentials.detail).toMatch(/did not give a token: 401/);
    expect(credentials.fix).toMatch(/SIGMA_API_CLIENT_SECRET/);
    const embed = byName(results, "Embed credentials");
    expect(embed).toMatchObject({ outcome: "fail", detail: expect.stringMatching(/EINVAL/) });
    expect(embed.fix).toMatch(/SIGMA_EMBED_SECRET/);
  });

  it(
    "names an account type the org lacks, a workbook it lacks, a team it lacks and a workbook not shared",
    { timeout: 60_000 },
    async () => {
      const [portfolio] = DEMO_WORKBOOKS;
      const urlId = portfolio.workbookName.slice(portfolio.workbookName.lastIndexOf("-") + 1);
      const added = await database.db
        .insert(workbooks)
        .values([
          { workbookName: "Estate-Plan-ZZZZZZZZZZZZZZZZZZZZZZ", teamName: portfolio.teamName },
          // The same workbook under another name, for a team that does not exist: not shared with it.
          { workbookName: `Portfolio-Review-${urlId}`, teamName: "Review Desk" },
        ])
        .returning({ id: workbooks.id });
      try {
        const broken = loadConfig({ ...env, SIGMA_ACCOUNT_TYPES: "View=Viewer" });
        const results = await check({}, broken);
        expect(outcomes(results)).toMatchObject({
          "API credentials (SIGMA_API_CLIENT_ID, SIGMA_API_CLIENT_SECRET)": "pass",
          "Account types (SIGMA_ACCOUNT_TYPES)": "fail",
          "Row-security user attributes": "pass",
          Teams: "fail",
          "Catalogue workbooks exist": "fail",
          "Workbooks shared with their teams": "fail",
        });
        expect(byName(results, "Account types").detail).toMatch(/Viewer \(for View\)/);
        expect(byName(results, "Teams").detail).toBe("Missing: Review Desk.");
        expect(byName(results, "Catalogue workbooks exist").detail).toMatch(
          /Estate-Plan-ZZZZZZZZZZZZZZZZZZZZZZ/,
        );
        expect(byName(results, "Workbooks shared").detail).toMatch(
          /Portfolio-Review-.* \(team Review Desk\)/,
        );
        for (const failed of results.filter((r) => r.outcome === "fail")) expect(failed.fix).toBeTruthy();
      } finally {
        for (const { id } of added) {
          await database.db.delete(workbooks).where(eq(workbooks.id, id));
        }
      }
    },
  );

  it("names a missing row-security attribute (an org without it)", { timeout: 60_000 }, async () => {
    const sigma = await startSigmaStandIn({ userAttributes: [{ name: "client_id" }] });
    try {
      const cfg = loadConfig({
        ...env,
        SIGMA_API_BASE_URL: sigma.url,
        SIGMA_API_CLIENT_ID: sigma.credentials.clientId,
        SIGMA_API_CLIENT_SECRET: sigma.credentials.clientSecret,
        SIGMA_EMBED_BASE_URL: `${sigma.url}/${sigma.orgSlug}`,
        SIGMA_EMBED_CLIENT_ID: sigma.embedCredentials.clientId,
        SIGMA_EMBED_SECRET: sigma.embedCredentials.secret,
      });
      const attributes = byName(await check({}, cfg), "Row-security user attributes");
      expect(attributes).toMatchObject({ outcome: "fail", detail: "Missing: client_ids." });
    } finally {
      await sigma.close();
    }
  });

  it("as a command: exit 0 with the checklist, exit 1 naming what failed", { timeout: 300_000 }, async () => {
    // PGlite has one user at a time: the command opens the database itself.
    if (!databaseUrl) await database.close();
    const ok = await run();
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toContain("sigma:check against the built-in analytics server");
    expect(ok.stdout).toContain("✔ API credentials");
    expect(ok.stdout).toContain("All checks passed.");
    expect(ok.status).toBe(0);

    const broken = await run({ SIGMA_ACCOUNT_TYPES: "View=Viewer" });
    expect(broken.stdout).toMatch(/✘ Account types \(SIGMA_ACCOUNT_TYPES\): Not in the org: Viewer/);
    expect(broken.stdout).toMatch(/ {4}Fix: Set SIGMA_ACCOUNT_TYPES/);
    expect(broken.stdout).toContain("1 check(s) failed");
    expect(broken.status).toBe(1);
  });
});
