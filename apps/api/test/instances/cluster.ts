import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startAnalyticsServer, type AnalyticsServer } from "@portal/analytics";
import { loadOrCreateLocalSigmaCredentials, SigmaRestClient } from "@portal/sigma";
import { createScratchDatabase } from "../support/database.ts";
import { freePort } from "../support/net.ts";

/**
 * Several real portal processes (`server.ts`, as `npm start` runs it) on one PostgreSQL database and the
 * real Redis, behind a round-robin proxy written here: the production set-up of the README, for the
 * multi-instance acceptance tests and `bench:embed`. The BI service is the built-in analytics server,
 * reached through a recording proxy that can also be stopped (an outage) and slowed down.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const serverEntry = path.join(root, "apps/api/src/server.ts");

export const ADMIN = {
  email: "cluster.admin@meridian-advisory.example",
  password: "granite-harbour-ledger-77",
};

/** Set on the balancer's own 502 (no instance answered: the one it chose was killed or had exited). */
export const BALANCER_HEADER = "x-cluster-balancer";

export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Lines the process printed (for failures). */
  output: string[];
}

/** One call the BI service received through the recording proxy. */
export interface BiCall {
  method: string;
  path: string;
  body: string;
  at: number;
}

export interface ClusterOptions {
  instances?: number;
  env?: Record<string, string>;
  /** The PostgreSQL server a scratch database is made on; default TEST_DATABASE_URL or the local one. */
  databaseServer?: string;
}

const listen = (server: Server, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });

/** Forwards a request to `target` and streams the answer back; false when the target could not be reached. */
function forward(req: IncomingMessage, body: Buffer, target: number, res: ServerResponse) {
  return new Promise<boolean>((resolve) => {
    const upstream = httpRequest(
      { host: "127.0.0.1", port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        // Hop-by-hop headers are the instance's own connection's: passed on, the instance's Keep-Alive
        // timeout (72 s) would have the client reuse a connection this proxy closes after 5 s idle.
        const { connection: _connection, "keep-alive": _keepAlive, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
        answer.on("end", () => resolve(true));
        answer.on("error", () => resolve(true));
      },
    );
    upstream.on("error", () => resolve(false));
    upstream.end(body);
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

export async function startCluster(options: ClusterOptions = {}) {
  const count = options.instances ?? 2;
  const dataDir = mkdtempSync(path.join(tmpdir(), "portal-cluster-"));
  const database = await createScratchDatabase(
    options.databaseServer ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    "portal_cluster",
  );
  // The analytics server and the portal share the generated BI credentials, as `npm start` does.
  await loadOrCreateLocalSigmaCredentials(dataDir);
  const analyticsPort = await freePort();
  let analytics: AnalyticsServer | undefined = await startAnalyticsServer({
    logger: false,
    buildFrontEnd: false,
    env: {
      DATA_DIR: dataDir,
      ANALYTICS_PORT: String(analyticsPort),
      ANALYTICS_LOG_LEVEL: "silent",
      ANALYTICS_DEMO_SIZE: "2",
    },
  });

  // The BI service's REST API as the portals reach it: recorded, and stoppable.
  const biCalls: BiCall[] = [];
  let biUp = true;
  let biDelayMs = 0;
  const biSockets = new Set<Socket>();
  const biProxy = createServer(async (req, res) => {
    const body = await readBody(req);
    if (!biUp) {
      req.socket.destroy();
      return;
    }
    if (biDelayMs > 0) await new Promise((r) => setTimeout(r, biDelayMs));
    biCalls.push({ method: req.method ?? "", path: req.url ?? "", body: body.toString(), at: Date.now() });
    if (!(await forward(req, body, analyticsPort, res))) res.writeHead(502).end();
  });
  biProxy.on("connection", (socket) => {
    biSockets.add(socket);
    socket.on("close", () => biSockets.delete(socket));
  });
  const biPort = await listen(biProxy);

  // The load balancer: round robin over the instances that are up; a refused connection is a 502.
  const instances: (Instance | undefined)[] = [];
  let turn = 0;
  const balancer = createServer(async (req, res) => {
    const body = await readBody(req);
    const live = instances.filter((i): i is Instance => i !== undefined);
    const target = live[turn++ % Math.max(1, live.length)];
    if (!target || !(await forward(req, body, target.port, res))) {
      // Marked as the balancer's own answer, so a test can tell it from an instance's 502.
      if (!res.headersSent)
        res.writeHead(502, { "content-type": "application/json", [BALANCER_HEADER]: "no-answer" });
      res.end(JSON.stringify({ error: "No instance answered." }));
    }
  });
  const balancerPort = await listen(balancer);
  const publicUrl = `http://127.0.0.1:${balancerPort}`;

  const env = {
    ...process.env,
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PUBLIC_URL: publicUrl,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    REDIS_KEY_PREFIX: `cluster-${randomUUID()}:`,
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    ANALYTICS_PORT: String(analyticsPort),
    SIGMA_API_BASE_URL: `http://127.0.0.1:${biPort}`,
    DEMO_DATA: "0",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    MFA_REQUIRED_ROLES: "",
    LOG_LEVEL: "warn",
    AUTH_IP_LIMIT_PER_MINUTE: "100000",
    OUTBOX_LEASE_SECONDS: "5",
    SHUTDOWN_DRAIN_SECONDS: "0",
    ...options.env,
  };

  async function startInstance(index: number): Promise<Instance> {
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", serverEntry], {
      cwd: root,
      env: { ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    const keep = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 2_000) output.shift();
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    const instance: Instance = {
      name: `instance-${index}`,
      port,
      url: `http://127.0.0.1:${port}`,
      child,
      output,
    };
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${instance.name} exited:\n${output.join("")}`);
      try {
        const ready = await fetch(`${instance.url}/readyz`);
        if (ready.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`${instance.name} did not become ready:\n${output.join("")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    instances[index] = instance;
    return instance;
  }

  // One at a time, as a rolling start would: the first applies the migrations and creates the admin.
  for (let i = 0; i < count; i++) await startInstance(i);

  async function stopInstance(index: number, signal: NodeJS.Signals = "SIGTERM") {
    const instance = instances[index];
    if (!instance) return undefined;
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => {
      if (instance.child.exitCode !== null) resolve(instance.child.exitCode);
      else instance.child.once("exit", (code) => resolve(code));
    });
    if (signal === "SIGKILL") instances[index] = undefined;
    instance.child.kill(signal);
    const code = await exited;
    instances[index] = undefined;
    return { code, ms: Date.now() - started };
  }

  return {
    publicUrl,
    /** The BI service itself, not through the recording proxy. */
    async biClient() {
      const creds = await loadOrCreateLocalSigmaCredentials(dataDir);
      return new SigmaRestClient({
        apiBaseUrl: `http://127.0.0.1:${analyticsPort}`,
        clientId: creds.apiClientId,
        clientSecret: creds.apiClientSecret,
      });
    },
    dataDir,
    databaseUrl: database.url,
    /** What the instances derive the audit chain key from (`auditChainKey`): AUDIT_KEY, else the auth secret. */
    auditKeySecret: (env as NodeJS.ProcessEnv).AUDIT_KEY ?? env.BETTER_AUTH_SECRET,
    instances,
    biCalls,
    startInstance,
    stopInstance,
    /** The BI service goes away: connections are dropped until `biStart`. */
    biStop() {
      biUp = false;
      for (const socket of biSockets) socket.destroy();
    },
    biStart() {
      biUp = true;
    },
    biSlow(ms: number) {
      biDelayMs = ms;
    },
    async close() {
      await Promise.all(instances.map((_, i) => stopInstance(i, "SIGKILL")));
      await new Promise((r) => balancer.close(r));
      balancer.closeAllConnections();
      biProxy.closeAllConnections();
      await new Promise((r) => biProxy.close(r));
      try {
        await analytics?.close();
        analytics = undefined;
        await database.drop();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

/** A browser-like client of the portal: cookie jar, Origin header, one retry when no instance answered. */
export function portalClient(baseUrl: string, origin = baseUrl) {
  let cookie = "";
  let retries = 0;
  async function call(method: string, urlPath: string, body?: unknown, extra: Record<string, string> = {}) {
    const init: RequestInit = {
      method,
      headers: {
        origin,
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...extra,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${urlPath}`, init);
    } catch {
      res = new Response(null, { status: 599 });
    }
    // An instance that died mid-request, or is shutting down: the client tries once more.
    if (res.status === 502 || res.status === 503 || res.status === 599) {
      retries += 1;
      await new Promise((r) => setTimeout(r, 100));
      res = await fetch(`${baseUrl}${urlPath}`, init);
    }
    const set = res.headers.getSetCookie();
    if (set.length > 0) {
      const jar = new Map(
        cookie
          .split("; ")
          .filter(Boolean)
          .map((c) => [c.split("=")[0]!, c] as const),
      );
      for (const c of set) {
        const pair = c.split(";")[0]!;
        jar.set(pair.split("=")[0]!, pair);
      }
      cookie = [...jar.values()].filter((c) => !c.endsWith("=")).join("; ");
    }
    return res;
  }
  return {
    call,
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookie = value;
    },
    get retries() {
      return retries;
    },
    async signIn(email: string, password: string) {
      const res = await call("POST", "/api/auth/sign-in/email", { email, password });
      if (res.status !== 200) throw new Error(`sign-in ${res.status}: ${await res.text()}`);
      return res;
    },
  };
}
