import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { DEMO_CLIENTS, DEMO_EMPLOYEE, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { mintEmbedUrl, type TEmbedUserClaims, type TMintEmbedUrlOptions } from "@portal/sigma";
import { openDatabase, type Database } from "../src/db/database.ts";
import { startAnalyticsServer, type AnalyticsServer } from "../src/server.ts";

/** The as-of date every test uses, so figures are the same on every run. */
export const TEST_AS_OF = "2026-11-20";
export const TEST_SEED = 24;
export const EMBED_CLIENT = { clientId: "test-embed-client-0001", secret: "e".repeat(64) };
export const API_CLIENT = { clientId: "test-api-client-0001", secret: "a".repeat(64) };

/**
 * A database for one test file: in-memory PGlite by default, or a fresh database on the PostgreSQL server
 * named by TEST_DATABASE_URL (dropped afterwards).
 */
export async function openTestDatabase(): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const db = await openDatabase({});
    return { db, cleanup: () => db.close() };
  }
  const name = `analytics_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ url: target.toString(), poolSize: 4 });
  return {
    db,
    cleanup: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export interface TestServer {
  server: AnalyticsServer;
  db: Database;
  dataDir: string;
  stop: () => Promise<void>;
  restart: () => Promise<AnalyticsServer>;
}

/** Workbooks only the tests serve (`control-values.yaml`: values with commas, spaces and accents). */
export const FIXTURE_WORKBOOKS_DIR = fileURLToPath(new URL("./fixtures/workbooks", import.meta.url));
export const CONTROL_VALUES_WORKBOOK = "Control-Values-CtrlValuesFixture0000001";

/** Starts the analytics server on a free port over a tiny demo data set, with the fixture workbooks. */
export async function startTestServer(
  options: { allowedParentOrigins?: string[] } = {},
): Promise<TestServer> {
  const { db, cleanup } = await openTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "analytics-test-"));
  const start = () =>
    startAnalyticsServer({
      database: db,
      logger: false,
      buildFrontEnd: false,
      workbookDirs: [FIXTURE_WORKBOOKS_DIR],
      env: { DATA_DIR: dataDir, ANALYTICS_PORT: "0", ANALYTICS_LOG_LEVEL: "silent" },
      config: {
        port: 0,
        allowedParentOrigins: options.allowedParentOrigins ?? ["http://127.0.0.1:3000"],
        embedClients: [EMBED_CLIENT],
        apiClients: [API_CLIENT],
        demo: { size: { clients: 6 }, seed: TEST_SEED, asOf: TEST_AS_OF },
      },
    });
  let server = await start();
  return {
    get server() {
      return server;
    },
    db,
    dataDir,
    restart: async () => {
      await server.close();
      server = await start();
      return server;
    },
    stop: async () => {
      await server.close();
      await cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  } as TestServer;
}

export const [PORTFOLIO, TAX, INCOME] = DEMO_WORKBOOKS;
export const [CLIENT_A, CLIENT_B] = DEMO_CLIENTS;
export { DEMO_EMPLOYEE };

type User = TEmbedUserClaims;

export function clientUser(
  client: (typeof DEMO_CLIENTS)[number],
  teams: string[] = DEMO_WORKBOOKS.map((w) => w.teamName),
): User {
  return {
    email: client.email,
    firstName: client.firstName,
    lastName: client.lastName,
    accountType: client.privilege,
    teams,
    userAttributes: { client_id: client.clientId },
  };
}

export function employeeUser(): User {
  return {
    email: DEMO_EMPLOYEE.email,
    firstName: DEMO_EMPLOYEE.firstName,
    lastName: DEMO_EMPLOYEE.lastName,
    accountType: DEMO_EMPLOYEE.privilege,
    teams: DEMO_WORKBOOKS.map((w) => w.teamName),
    userAttributes: { client_ids: DEMO_EMPLOYEE.clientIds.join(",") },
  };
}

/** Mints with the portal's own minting module. */
export function mint(
  server: AnalyticsServer,
  workbookName: string,
  user: User,
  extra: Partial<TMintEmbedUrlOptions> = {},
) {
  return mintEmbedUrl({
    embedBaseUrl: server.embedBaseUrl,
    workbookName,
    clientId: EMBED_CLIENT.clientId,
    secret: EMBED_CLIENT.secret,
    user,
    ...extra,
  });
}

export interface RestAnswer {
  status: number;
  body: unknown;
}

/** Sigma's token request: form-encoded `grant_type`, the API client by HTTP Basic authentication. */
export function requestToken(
  server: AnalyticsServer,
  form: Record<string, string> = { grant_type: "client_credentials" },
  client: { clientId: string; secret: string } = API_CLIENT,
): Promise<Response> {
  return fetch(`${server.url}/v2/auth/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(form).toString(),
  });
}

/**
 * Calls the server's REST API as a client of Sigma's would, on the wire (no client library): a bearer token
 * from `POST /v2/auth/token`, JSON bodies, the status and parsed body of each answer.
 */
export function restCaller(server: () => AnalyticsServer) {
  let token: string | undefined;
  return async (method: string, path: string, body?: unknown): Promise<RestAnswer> => {
    if (!token) {
      const res = await requestToken(server());
      token = ((await res.json()) as { access_token: string }).access_token;
    }
    const res = await fetch(`${server().url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
}
