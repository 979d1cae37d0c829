import { parseArgs } from "node:util";
import { buildApp } from "../app.ts";
import { ensureUser } from "../auth/users.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";

/** npm run admin:create -- --email E --password P [--name N] */
async function main() {
  const { values } = parseArgs({
    options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
  });
  if (!values.email || !values.password) {
    console.error("Usage: npm run admin:create -- --email <email> --password <password> [--name <name>]");
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const { app, auth } = await buildApp({ config, database, logger: false });
    const result = await ensureUser(auth, database.db, {
      email: values.email,
      name: values.name ?? "Administrator",
      password: values.password,
      role: "admin",
      resetExisting: true,
    });
    await app.close();
    console.log(
      `Admin ${values.email} ${result === "created" ? "created" : "updated (password and role reset)"}.`,
    );
    if (config.mfaRequiredRoles.includes("admin")) {
      console.log(
        result === "created"
          ? "They set up two-step verification on their first sign-in."
          : "Their two-step verification, if already set up, is kept.",
      );
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Could not create the admin: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
