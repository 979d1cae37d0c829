import { randomBytes } from "node:crypto";
import pg from "pg";
import { createPglite, fromPglite, fromPostgres, type DatabaseHandle } from "../../src/db/client.ts";

/**
 * A migrated database for one test file: embedded PGlite by default, or a fresh database on the
 * real PostgreSQL server when TEST_DATABASE_URL is set (CI runs both). Close it in afterAll.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = fromPglite(await createPglite());
    await handle.migrate();
    return handle;
  }
  const scratch = await createScratchDatabase(serverUrl, "portal_test");
  const handle = fromPostgres(scratch.url);
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}

/** A fresh, empty database on the PostgreSQL server at `serverUrl`, and how to drop it again. */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
