import { mkdir } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

export type Row = Record<string, unknown>;

/** What both drivers offer inside and outside a transaction. */
export interface Queryable {
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in a transaction; commits unless `fn` throws or `rollbackOnly` is set. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: { rollbackOnly?: boolean }): Promise<T>;
  /** Bulk load CSV text chunks with COPY. */
  copyCsv(
    table: string,
    columns: readonly string[],
    chunks: AsyncIterable<string> | Iterable<string>,
  ): Promise<void>;
  close(): Promise<void>;
}

// Both drivers return the same JavaScript values: dates as `YYYY-MM-DD` strings (no time-zone shifts),
// numeric and bigint as numbers (money and counts here stay far below 2^53).
const DATE = 1082;
const NUMERIC = 1700;
const INT8 = 20;
const toNumber = (v: string) => Number(v);
const identity = (v: string) => v;
const PGLITE_PARSERS = { [DATE]: identity, [NUMERIC]: toNumber, [INT8]: toNumber };

function assertIdentifierList(table: string, columns: readonly string[]) {
  const ok = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;
  if (!ok.test(table) || !columns.every((c) => /^[a-z_][a-z0-9_]*$/.test(c))) {
    throw new Error(`invalid COPY target ${table}(${columns.join(",")})`);
  }
}

class PgliteDatabase implements Database {
  readonly kind = "pglite" as const;
  constructor(private readonly db: PGlite) {}

  async query<T = Row>(sql: string, params: readonly unknown[] = []) {
    const res = await this.db.query<T>(sql, [...params], { parsers: PGLITE_PARSERS });
    return { rows: res.rows };
  }
  async exec(sql: string) {
    await this.db.exec(sql);
  }
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options: { rollbackOnly?: boolean } = {}): Promise<T> {
    return this.db.transaction(async (tx: Transaction) => {
      const q: Queryable = {
        query: async <R = Row>(sql: string, params: readonly unknown[] = []) => ({
          rows: (await tx.query<R>(sql, [...params], { parsers: PGLITE_PARSERS })).rows,
        }),
        exec: async (sql: string) => {
          await tx.exec(sql);
        },
      };
      const result = await fn(q);
      if (options.rollbackOnly && !tx.closed) await tx.rollback();
      return result;
    });
  }
  async copyCsv(table: string, columns: readonly string[], chunks: AsyncIterable<string> | Iterable<string>) {
    assertIdentifierList(table, columns);
    const sql = `COPY ${table} (${columns.join(", ")}) FROM '/dev/blob' WITH (FORMAT csv)`;
    let buffer: string[] = [];
    let size = 0;
    const flush = async () => {
      if (size === 0) return;
      await this.db.query(sql, [], { blob: new Blob(buffer) });
      buffer = [];
      size = 0;
    };
    for await (const chunk of chunks) {
      buffer.push(chunk);
      size += chunk.length;
      if (size > 16 * 1024 * 1024) await flush();
    }
    await flush();
  }
  async close() {
    if (!this.db.closed) await this.db.close();
  }
}

/** pg's typings lack `queryMode`; it forces the extended protocol (one statement per call). */
function extended(text: string, params: readonly unknown[]): pg.QueryConfig {
  return { text, values: [...params], queryMode: "extended" } as pg.QueryConfig;
}

class PostgresDatabase implements Database {
  readonly kind = "postgres" as const;
  constructor(private readonly pool: pg.Pool) {}

  async query<T = Row>(sql: string, params: readonly unknown[] = []) {
    // Always the extended protocol: exactly one statement per call, even without parameters.
    const res = await this.pool.query(extended(sql, params));
    return { rows: res.rows as T[] };
  }
  async exec(sql: string) {
    await this.pool.query(sql);
  }
  async transaction<T>(
    fn: (tx: Queryable) => Promise<T>,
    options: { rollbackOnly?: boolean } = {},
  ): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const q: Queryable = {
        query: async <R = Row>(sql: string, params: readonly unknown[] = []) => ({
          rows: (await client.query(extended(sql, params))).rows as R[],
        }),
        exec: async (sql: string) => {
          await client.query(sql);
        },
      };
      const result = await fn(q);
      await client.query(options.rollbackOnly ? "ROLLBACK" : "COMMIT");
      return result;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      // A connection whose ROLLBACK failed is not reused: it may still carry a role or settings.
      client.release(broken ? true : undefined);
    }
  }
  async copyCsv(table: string, columns: readonly string[], chunks: AsyncIterable<string> | Iterable<string>) {
    assertIdentifierList(table, columns);
    const client = await this.pool.connect();
    try {
      const stream = client.query(
        copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN WITH (FORMAT csv)`),
      );
      await pipeline(Readable.from(chunks), stream);
    } finally {
      client.release();
    }
  }
  async close() {
    await this.pool.end();
  }
}

export interface OpenDatabaseOptions {
  /** A postgres:// URL; when absent an embedded PGlite database is used. */
  url?: string | undefined;
  /** PGlite data directory; absent = in memory. */
  dataDir?: string | undefined;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 8,
      types: {
        getTypeParser: ((oid: number, format?: string) => {
          if (oid === DATE) return identity;
          if (oid === NUMERIC || oid === INT8) return toNumber;
          return pg.types.getTypeParser(oid, format as "text");
        }) as typeof pg.types.getTypeParser,
      },
    });
    pool.on("error", () => {
      // An idle connection dropped by the server; the pool replaces it.
    });
    await pool.query("select 1");
    return new PostgresDatabase(pool);
  }
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const db = await PGlite.create(options.dataDir, {
    parsers: PGLITE_PARSERS,
  });
  return new PgliteDatabase(db);
}

/** Wraps an existing PGlite instance (tests share one migrated instance per file and `clone()` it). */
export function wrapPglite(db: PGlite): Database {
  return new PgliteDatabase(db);
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid identifier: ${name}`);
  return `"${name}"`;
}
