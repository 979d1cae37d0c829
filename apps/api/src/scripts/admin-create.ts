import { parseArgs } from "node:util";
import { auditChainKey, useAuditChainKey } from "../audit/chain.ts";
import { resetTwoFactor } from "../auth/two-factor.ts";
import { ensureUser } from "../accounts/accounts.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { runScript } from "./run-script.ts";

const USAGE =
  "Usage: npm run admin:create -- --email <email> --password <password> [--name <name>] [--reset-two-factor]";

/**
 * npm run admin:create -- --email E --password P [--name N] [--reset-two-factor]
 * `--reset-two-factor` is the recovery of an admin who lost their authenticator and backup codes: their
 * enrolment is removed, their sessions end, and they set it up again at the next sign-in (audited).
 */
async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      "reset-two-factor": { type: "boolean" },
    },
  });
  if (!values.email || !values.password) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig();
  // The audit rows this writes join the hash chain (decision 007).
  useAuditChainKey(auditChainKey(config.auditKeySecret));
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const { status, userId } = await ensureUser(database.db, {
      email: values.email,
      name: values.name ?? "Administrator",
      password: values.password,
      role: "admin",
      resetExisting: true,
    });
    const reset =
      values["reset-two-factor"] === true &&
      (await resetTwoFactor(database.db, userId, { email: "system (admin:create)" }));
    console.log(
      `Admin ${values.email} ${status === "created" ? "created" : "updated (password and role reset)"}.`,
    );
    if (values["reset-two-factor"]) {
      console.log(
        reset
          ? "Their two-step verification was removed and their sessions ended: they set it up again at the next sign-in."
          : "They had no two-step verification to reset.",
      );
    } else if (config.mfaRequiredRoles.includes("admin")) {
      console.log(
        status === "created"
          ? "They set up two-step verification on their first sign-in."
          : "Their two-step verification, if already set up, is kept (--reset-two-factor removes it).",
      );
    }
  } finally {
    await database.close();
  }
}

runScript(main, "Could not create the admin");
