import { execFile, execFileSync } from "node:child_process";
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./net.ts";

/**
 * A PostgreSQL server of a test's own (initdb in a scratch directory, trust auth, 127.0.0.1 on a free port),
 * so that the test may stop and restart it: the shared server at TEST_DATABASE_URL is used by other test
 * files at the same time and is never touched. Needs PostgreSQL's server binaries (Debian's
 * /usr/lib/postgresql/<version>/bin, or PG_BIN); as root they run as the `postgres` user, as initdb requires.
 */
export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** False after `stop` until `start`. */
  readonly running: boolean;
  /** pg_ctl stop: `fast` ends sessions cleanly, `immediate` as a crash would. */
  stop(mode?: "smart" | "fast" | "immediate"): Promise<void>;
  /** Starts the stopped server and waits until it accepts connections. */
  start(): Promise<void>;
  /** pg_ctl restart -m fast, then waits until it accepts connections. */
  restart(): Promise<void>;
  /** The server's log so far (for failures). */
  log(): string;
  /** Stops the server at once and removes its directory; safe to call twice or after a failed start. */
  close(): Promise<void>;
}

/** The newest PostgreSQL's server binaries: PG_BIN, else the highest version under /usr/lib/postgresql. */
export function postgresBinaries(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(path.join(base, v, "bin", "pg_ctl")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) {
    throw new Error(
      `PostgreSQL's server binaries (initdb, pg_ctl) were not found under ${base}; set PG_BIN.`,
    );
  }
  return path.join(base, versions[0], "bin");
}

const asRoot = process.getuid?.() === 0;
const idOf = (flag: "-u" | "-g") => Number(execFileSync("id", [flag, "postgres"]).toString().trim());

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), "portal-pg-"));
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  if (asRoot) chownSync(dir, idOf("-u"), idOf("-g"));

  /** Runs one of PostgreSQL's programs, as `postgres` when this process is root. */
  const run = (program: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [file, argv] = asRoot
        ? ["runuser", ["-u", "postgres", "--", path.join(bin, program), ...args]]
        : [path.join(bin, program), args];
      execFile(file, argv, { cwd: dir, timeout: 90_000 }, (error, stdout, stderr) => {
        if (!error) return resolve();
        const tail = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2_000) : "";
        reject(
          new Error(`${program} ${args.join(" ")} failed: ${error.message}\n${stdout}${stderr}\n${tail}`),
        );
      });
    });

  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  /** pg_ctl -w waits for the server; a connection is the proof this test needs. */
  const accepting = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      client.on("error", () => undefined);
      try {
        await client.connect();
        await client.query("select 1");
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`private PostgreSQL not accepting connections: ${error}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  const ctl = (...args: string[]) => run("pg_ctl", ["-D", data, "-l", logFile, "-w", "-t", "60", ...args]);
  let running = false;
  const server: PrivatePostgres = {
    url,
    port,
    get running() {
      return running;
    },
    async stop(mode = "fast") {
      await ctl("-m", mode, "stop");
      running = false;
    },
    async start() {
      await ctl("start");
      running = true;
      await accepting();
    },
    async restart() {
      await ctl("-m", "fast", "restart");
      running = true;
      await accepting();
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
    async close() {
      if (running) await ctl("-m", "immediate", "stop").catch(() => undefined);
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    await run("initdb", [
      "-D",
      data,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    appendFileSync(
      path.join(data, "postgresql.conf"),
      [
        "",
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        // A scratch server: durability against a crash of the machine is not what is tested.
        "fsync = off",
        "full_page_writes = off",
        "max_connections = 200",
        "",
      ].join("\n"),
    );
    running = true; // from here on close() must try to stop it
    await server.start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
