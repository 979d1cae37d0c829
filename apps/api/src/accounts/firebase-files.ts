import { z } from "zod";
import {
  decodeFirebaseBase64,
  FIREBASE_MEM_COST,
  FIREBASE_ROUNDS,
  inRange,
  type FirebaseHashConfig,
} from "./firebase-scrypt.ts";

/**
 * Reading the two files of a Firebase Authentication export: the users (`firebase auth:export
 * users.json --format=json`) and the project's password hash parameters. A file that cannot be what it
 * claims is refused whole with a message naming the file and what is wrong, before anything is written.
 */

export class FirebaseFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = "FirebaseFileError";
  }
}

/** One user of the export; fields the portal does not use (providerUserInfo, createdAt, ...) are ignored. */
const ZFirebaseUserSchema = z.object({
  localId: z.string().min(1),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  passwordHash: z.string().optional(),
  salt: z.string().optional(),
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  disabled: z.boolean().optional(),
  /** A JSON object as a string, as auth:export writes custom claims. */
  customAttributes: z.string().optional(),
});
export type TFirebaseUser = z.infer<typeof ZFirebaseUserSchema>;

const ZFirebaseExportSchema = z.object({ users: z.array(ZFirebaseUserSchema) });

function parseJson(file: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? ` (${error.message})` : "";
    throw new FirebaseFileError(file, `is not JSON${detail}. ${what}`);
  }
}

function issuesText(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const where = issue.path.length
      ? issue.path
          .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
          .join("")
          .replace(/^\./, "")
      : "the file";
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length > limit ? `; and ${error.issues.length - limit} more` : "";
  return lines.join("; ") + more;
}

export function parseFirebaseUsers(file: string, text: string): TFirebaseUser[] {
  const expected =
    'Expected the output of `firebase auth:export users.json --format=json`: {"users": [...]}.';
  const data = parseJson(file, text, expected);
  if (typeof data !== "object" || data === null || Array.isArray(data) || !("users" in data)) {
    throw new FirebaseFileError(file, `has no "users" list. ${expected}`);
  }
  const parsed = ZFirebaseExportSchema.safeParse(data);
  if (!parsed.success) {
    throw new FirebaseFileError(file, `is not a Firebase user export: ${issuesText(parsed.error)}.`);
  }
  return parsed.data.users;
}

const HASH_FIELDS = ["base64_signer_key", "base64_salt_separator", "rounds", "mem_cost"] as const;

/** Other spellings of the same parameters: the Admin SDK and Identity Platform's `hashConfig`. */
const ALIASES: Record<string, string> = {
  signerKey: "base64_signer_key",
  key: "base64_signer_key",
  saltSeparator: "base64_salt_separator",
  memoryCost: "mem_cost",
  memCost: "mem_cost",
};

/**
 * The Console's "Password hash parameters" dialog shows a text block, not JSON:
 * `hash_config { algorithm: SCRYPT, base64_signer_key: …, base64_salt_separator: Bw==, rounds: 8, mem_cost: 14, }`.
 */
function parseConsoleBlock(text: string): Record<string, unknown> | undefined {
  if (!/\bbase64_signer_key\s*:/.test(text)) return undefined;
  const fields: Record<string, unknown> = {};
  for (const match of text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^,\s}]+)/g)) {
    fields[match[1]!] = match[2]!.replace(/^["']|["']$/g, "");
  }
  return fields;
}

/** The object holding the parameters: the file itself, or `hash_config`/`hashConfig`/`signIn.hashConfig` in it. */
function hashConfigObject(data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  const signIn = record.signIn as Record<string, unknown> | undefined;
  const nested = record.hash_config ?? record.hashConfig ?? signIn?.hashConfig;
  if (typeof nested === "object" && nested !== null && !Array.isArray(nested)) {
    return nested as Record<string, unknown>;
  }
  return record;
}

function wholeNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/**
 * Reads the project's password hash parameters: JSON with `base64_signer_key`, `base64_salt_separator`,
 * `rounds`, `mem_cost` (flat or under `hash_config`), the camelCase `hashConfig` of the Admin SDK and
 * Identity Platform (`signerKey`, `saltSeparator`, `rounds`, `memoryCost`), or the Console's text block.
 */
export function parseFirebaseHashConfig(file: string, text: string): FirebaseHashConfig {
  const what =
    "Expected the project's password hash parameters (Firebase console → Authentication → Users → ⋮ → Password hash parameters): " +
    "base64_signer_key, base64_salt_separator, rounds, mem_cost.";
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
  } catch {
    data = parseConsoleBlock(text);
    if (!data)
      throw new FirebaseFileError(file, `is neither JSON nor the console's hash_config block. ${what}`);
  }
  const raw = hashConfigObject(data);
  if (!raw) throw new FirebaseFileError(file, `is not an object of hash parameters. ${what}`);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) fields[ALIASES[key] ?? key] = value;

  const algorithm = fields.algorithm;
  if (algorithm !== undefined && String(algorithm).toUpperCase() !== "SCRYPT") {
    throw new FirebaseFileError(
      file,
      `algorithm is ${String(algorithm)}; only Firebase's own SCRYPT hashes can be imported.`,
    );
  }
  const missing = HASH_FIELDS.filter((field) => fields[field] === undefined || fields[field] === "");
  if (missing.length > 0) throw new FirebaseFileError(file, `missing ${missing.join(", ")}. ${what}`);

  const problems: string[] = [];
  const signerKey =
    typeof fields.base64_signer_key === "string" ? decodeFirebaseBase64(fields.base64_signer_key) : undefined;
  if (!signerKey || signerKey.length === 0) problems.push("base64_signer_key is not base64");
  const saltSeparator =
    typeof fields.base64_salt_separator === "string"
      ? decodeFirebaseBase64(fields.base64_salt_separator)
      : undefined;
  if (!saltSeparator) problems.push("base64_salt_separator is not base64");
  const rounds = wholeNumber(fields.rounds);
  if (rounds === undefined || !inRange(rounds, FIREBASE_ROUNDS)) {
    problems.push(`rounds must be a whole number from ${FIREBASE_ROUNDS.min} to ${FIREBASE_ROUNDS.max}`);
  }
  const memCost = wholeNumber(fields.mem_cost);
  if (memCost === undefined || !inRange(memCost, FIREBASE_MEM_COST)) {
    problems.push(
      `mem_cost must be a whole number from ${FIREBASE_MEM_COST.min} to ${FIREBASE_MEM_COST.max}`,
    );
  }
  if (problems.length > 0 || !signerKey || !saltSeparator || rounds === undefined || memCost === undefined) {
    throw new FirebaseFileError(file, `${problems.join("; ")}.`);
  }
  return { signerKey, saltSeparator, rounds, memCost };
}
