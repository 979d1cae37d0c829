import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { schema } from "./schema.ts";

export type Schema = typeof schema;
/** The one database type the rest of the code sees, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** Connections to the database: open, idle, and requests waiting for one (PGlite: one, never waiting). */
  poolStats(): { total: number; idle: number; waiting: number };
  /** Where the pool reports connections the server ended while idle (the app's logger once it exists). */
  useLog(log: { warn(details: object, message: string): void }): void;
  close(): Promise<void>;
}

export function fromPglite(client: PGlite): DatabaseHandle {
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Database,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => {
      await client.query("select 1");
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    useLog: () => undefined,
    close: () => client.close(),
  };
}

/** The advisory lock key under which one instance at a time applies migrations. */
const MIGRATION_LOCK = 72_431_011;

export function fromPostgres(url: string): DatabaseHandle {
  // A server that accepts no connection (restarting, overloaded) is an error within five seconds, answered
  // 503 (lib/dependency-faults.ts), instead of a request waiting for a connection without end.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle connection that the server ends (restart, failover, admin command) is reported here; the
  // pool replaces it. Without a listener the process would crash; queries in flight get their own error.
  let log: { warn(details: object, message: string): void } = {
    warn: (_details, message) => console.warn(message),
  };
  pool.on("error", (error) => log.warn({ err: error }, `database connection closed: ${error.message}`));
  // The pool listens only on idle connections: one that is checked out (inside a transaction, between two
  // statements) and ended by the server would emit an unhandled 'error' and end the process. The statement
  // in flight, or the next one, fails on its own and is answered 503 (lib/dependency-faults.ts).
  pool.on("connect", (client) =>
    client.on("error", (error) =>
      log.warn({ err: error }, `database connection closed while in use: ${error.message}`),
    ),
  );
  const db = drizzleNodePg(pool, { schema });
  return {
    db: db as unknown as Database,
    kind: "postgres",
    migrate: async () => {
      // An up-to-date database needs nothing, and drizzle's migrator would still try to create its schema
      // and table: refused to a role that does not own the tables (README: running under a separate role).
      const upToDate = () =>
        migrationsApplied(db as unknown as Database, countMigrations()).catch(() => false);
      if (await upToDate()) return;
      // Instances starting together: one migrates while the others wait on the lock, then find it done.
      const lock = await pool.connect();
      try {
        await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
        if (!(await upToDate())) await migrateNodePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
        lock.release();
      }
    },
    ping: async () => {
      await pool.query("select 1");
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    useLog: (next) => void (log = next),
    close: () => pool.end(),
  };
}

/** DATABASE_URL → a real PostgreSQL server; unset → embedded PGlite with its data under DATA_DIR. */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return fromPostgres(options.databaseUrl);
  const dir = path.join(options.dataDir, "pglite");
  mkdirSync(dir, { recursive: true });
  return fromPglite(await createPglite(dir));
}

/** PGlite with the extensions the migrations use. `dataDir` unset → in memory. */
export function createPglite(dataDir?: string): Promise<PGlite> {
  return PGlite.create(dataDir, { extensions: { pg_trgm } });
}

/** How many migrations the folder holds. */
export function countMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** True when every migration in the folder has been applied (used by /readyz). */
export async function migrationsApplied(db: Database, expected: number): Promise<boolean> {
  const result = await db.execute<{ count: number }>(
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  const rows = (result as unknown as { rows: { count: number }[] }).rows;
  return (rows[0]?.count ?? 0) >= expected;
}

/** A transaction handle; code that writes accepts either, so it can join the caller's transaction. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;
