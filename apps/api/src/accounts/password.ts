import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@portal/contracts";

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

/**
 * The most common passwords that the length rule would otherwise accept: the list zxcvbn-ts maintains
 * (@zxcvbn-ts/language-common, ~30,000 passwords from real breaches), compared without letter case.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    (dictionary["passwords-common"] as string[]).filter((p) => p.length >= PASSWORD_MIN_LENGTH),
  );
  return common.has(password.toLowerCase());
}

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  common: "This password is one of the most commonly used passwords. Please choose a different one.",
  personal: "The password must not contain your name or email address.",
} as const;

/** Who the password is for: it must not be made of their own name or email address. */
export interface PasswordOwner {
  email?: string | null | undefined;
  name?: string | null | undefined;
}

/** Parts of the owner's email and name (4 characters or more) that a password must not contain. */
function personalWords({ email, name }: PasswordOwner): string[] {
  const words = new Set<string>();
  const address = email?.trim().toLowerCase() ?? "";
  if (address) {
    words.add(address);
    const local = address.split("@")[0] ?? "";
    words.add(local);
    for (const part of local.split(/[^\p{L}\p{N}]+/u)) words.add(part);
  }
  for (const part of (name ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u)) words.add(part);
  return [...words].filter((w) => w.length >= 4);
}

/**
 * The one password policy of the portal (ASVS 5.0 6.2): 8–128 characters, not one of the most common
 * passwords, not made of the person's own name or email. No composition rules. Answers the readable
 * problem, or undefined when the password is acceptable.
 */
export function passwordProblem(password: string, owner: PasswordOwner = {}): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (isCommonPassword(password)) return PASSWORD_MESSAGES.common;
  const lower = password.toLowerCase();
  if (personalWords(owner).some((word) => lower.includes(word))) return PASSWORD_MESSAGES.personal;
  return undefined;
}
