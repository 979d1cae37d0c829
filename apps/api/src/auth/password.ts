import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MIN_LENGTH } from "@portal/contracts";

/** OWASP Password Storage Cheat Sheet: Argon2id, m=19 MiB, t=2, p=1. */
const ARGON2_OPTIONS = {
  algorithm: 2 /* Argon2id */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }) {
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash must never be an error path that leaks details: it simply does not match.
    return false;
  }
}

let common: Set<string> | undefined;

/** The most common passwords (from the zxcvbn list) that our length rule would otherwise accept. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    (dictionary["passwords-common"] as string[]).filter((p) => p.length >= PASSWORD_MIN_LENGTH),
  );
  return common.has(password.toLowerCase());
}

export const COMMON_PASSWORD_MESSAGE =
  "This password is one of the most commonly used passwords. Please choose a different one.";
