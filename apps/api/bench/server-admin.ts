import pg from "pg";

/** The PostgreSQL server the benchmarks create their scratch databases on. */
export const BENCH_SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Runs one statement on the benchmark server over a connection of its own (create/drop database). */
export async function serverAdmin(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_SERVER });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}
