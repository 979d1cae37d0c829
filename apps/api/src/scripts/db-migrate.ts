import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";

/**
 * npm run db:migrate — applies pending migrations and exits, with the same environment as `npm start`.
 * For running the portal under a role that does not own its tables: the owner's DATABASE_URL runs this,
 * the portal's own role only checks at boot that nothing is pending (README, security).
 */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    console.log("Migrations applied: the database is up to date.");
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Could not apply the migrations: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
