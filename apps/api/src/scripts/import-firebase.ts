import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { formatImportReport, importFirebaseUsers } from "../accounts/firebase-import.ts";
import {
  FirebaseFileError,
  parseFirebaseHashConfig,
  parseFirebaseUsers,
} from "../accounts/firebase-files.ts";
import { auditChainKey, useAuditChainKey } from "../audit/chain.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { runScript } from "./run-script.ts";

const USAGE = "Usage: npm run import:firebase -- --users users.json --hash-config hash.json [--dry-run]";

async function readInput(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FirebaseFileError(
      file,
      code === "ENOENT" ? "no such file" : `cannot be read (${code ?? "error"})`,
    );
  }
}

/**
 * npm run import:firebase -- --users users.json --hash-config hash.json [--dry-run]
 * Brings the people of a Firebase Authentication project over with their passwords (decision 012), with
 * the same environment as `npm start` (PGlite under DATA_DIR: stop the portal first; or DATABASE_URL).
 * Both files are read and checked before the database is opened; `--dry-run` reports and changes nothing.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      users: { type: "string" },
      "hash-config": { type: "string" },
      "dry-run": { type: "boolean" },
    },
  });
  if (!values.users || !values["hash-config"]) {
    console.error(USAGE);
    process.exit(2);
  }
  const exported = parseFirebaseUsers(values.users, await readInput(values.users));
  const hashConfig = parseFirebaseHashConfig(values["hash-config"], await readInput(values["hash-config"]));
  const dryRun = values["dry-run"] === true;

  const config = loadConfig();
  // The audit rows this writes join the hash chain (decision 007).
  useAuditChainKey(auditChainKey(config.auditKeySecret));
  const database = await openDatabase(config);
  try {
    if (!dryRun) await database.migrate();
    const report = await importFirebaseUsers(database.db, exported, hashConfig, {
      dryRun,
      actor: `system (import:firebase ${path.basename(values.users)})`,
    });
    console.log(formatImportReport(report));
    if (!dryRun && report.imported.length > 0) {
      console.log(
        "Each imported password is checked Firebase's way at its owner's first sign-in and then stored as Argon2id.",
      );
    }
  } finally {
    await database.close();
  }
}

runScript(main, "Could not import the Firebase users");
