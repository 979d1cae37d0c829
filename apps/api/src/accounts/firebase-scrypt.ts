import { createCipheriv, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Firebase Authentication's modified scrypt (github.com/firebase/scrypt, lib/scryptenc/scryptenc.c), on
 * node:crypto: the key is scrypt(password, salt + salt separator, N = 2^mem_cost, r = rounds, p = 1);
 * its first 32 bytes encrypt the project's signer key with AES-256-CTR from a zero counter, and that
 * ciphertext is the stored hash. Decision 012 says why this is not an npm package.
 */

/** A Firebase project's password hash parameters (Console → Authentication → Password hash parameters). */
export interface FirebaseHashConfig {
  signerKey: Buffer;
  saltSeparator: Buffer;
  rounds: number;
  memCost: number;
}

/** Firebase's limits for these parameters (Admin SDK, `UserImportOptions` for SCRYPT). */
export const FIREBASE_ROUNDS = { min: 1, max: 8 } as const;
export const FIREBASE_MEM_COST = { min: 1, max: 14 } as const;

/**
 * `firebase auth:export` writes standard base64; the Admin SDK's listUsers the URL-safe alphabet. Both are
 * read, and anything else is refused rather than silently decoded to something shorter.
 */
export function decodeFirebaseBase64(value: string): Buffer | undefined {
  const standard = value.trim().replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard) || standard.replace(/=+$/, "").length % 4 === 1) {
    return undefined;
  }
  return Buffer.from(standard, "base64");
}

function scryptKey(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** The hash Firebase stores for `password` with this user's salt under the project's parameters. */
export async function firebaseScryptHash(
  password: string,
  salt: Buffer,
  config: FirebaseHashConfig,
): Promise<Buffer> {
  const N = 2 ** config.memCost;
  const key = await scryptKey(password, Buffer.concat([salt, config.saltSeparator]), {
    N,
    r: config.rounds,
    p: 1,
    // scrypt needs 128·N·r bytes: 16 MiB at Firebase's largest parameters, within Node's 32 MiB default,
    // stated here so the bound is explicit.
    maxmem: 128 * N * config.rounds + 1024 * 1024,
  });
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(config.signerKey), cipher.final()]);
}

/** Whether `password` is the one behind a Firebase hash (compared in constant time). */
export async function verifyFirebaseScrypt(
  password: string,
  stored: { hash: Buffer; salt: Buffer },
  config: FirebaseHashConfig,
): Promise<boolean> {
  const computed = await firebaseScryptHash(password, stored.salt, config);
  return computed.length === stored.hash.length && timingSafeEqual(computed, stored.hash);
}

/**
 * How an imported Firebase hash is stored in `accounts.password` until its owner's first sign-in replaces
 * it with Argon2id: `$firebase-scrypt$r=<rounds>,m=<mem_cost>$<salt>$<salt separator>$<signer key>$<hash>`
 * (standard base64). Like a PHC string it carries everything needed to verify it; the signer key is the
 * project's and adds nothing an attacker with the hashes would lack, since Firebase's hashes are worthless
 * without it and these rows exist only to be verified.
 */
export const FIREBASE_HASH_PREFIX = "$firebase-scrypt$";

export interface StoredFirebaseHash {
  hash: Buffer;
  salt: Buffer;
  config: FirebaseHashConfig;
}

export function encodeFirebaseHash({ hash, salt, config }: StoredFirebaseHash): string {
  const b64 = (value: Buffer) => value.toString("base64");
  return (
    `${FIREBASE_HASH_PREFIX}r=${config.rounds},m=${config.memCost}` +
    `$${b64(salt)}$${b64(config.saltSeparator)}$${b64(config.signerKey)}$${b64(hash)}`
  );
}

const STORED = /^\$firebase-scrypt\$r=(\d+),m=(\d+)\$([^$]*)\$([^$]*)\$([^$]+)\$([^$]+)$/;

/** The parts of a stored Firebase hash, or undefined for anything else (an Argon2id hash, a damaged row). */
export function decodeFirebaseHash(stored: string): StoredFirebaseHash | undefined {
  const match = STORED.exec(stored);
  if (!match) return undefined;
  const [, rounds, memCost, salt, separator, signerKey, hash] = match;
  const config = {
    rounds: Number(rounds),
    memCost: Number(memCost),
    saltSeparator: decodeFirebaseBase64(separator!),
    signerKey: decodeFirebaseBase64(signerKey!),
  };
  const parts = { salt: decodeFirebaseBase64(salt!), hash: decodeFirebaseBase64(hash!) };
  if (!config.saltSeparator || !config.signerKey || !parts.salt || !parts.hash) return undefined;
  if (!inRange(config.rounds, FIREBASE_ROUNDS) || !inRange(config.memCost, FIREBASE_MEM_COST)) {
    return undefined;
  }
  return {
    hash: parts.hash,
    salt: parts.salt,
    config: { ...config, saltSeparator: config.saltSeparator, signerKey: config.signerKey },
  };
}

export function inRange(value: number, range: { min: number; max: number }): boolean {
  return Number.isInteger(value) && value >= range.min && value <= range.max;
}
