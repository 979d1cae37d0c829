import { and, eq } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { accounts, users } from "../db/schema.ts";
import { decodeFirebaseHash, FIREBASE_HASH_PREFIX, verifyFirebaseScrypt } from "./firebase-scrypt.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/**
 * Better Auth's `emailAndPassword.password.verify`: every check of a stored password (sign-in, change,
 * two-step enrolment) comes here. Argon2id hashes are the portal's own; a hash kept from the Firebase
 * import (`$firebase-scrypt$…`, decision 012) is checked with Firebase's algorithm and, when it matches,
 * replaced at once by an Argon2id hash of the same password, so each imported password is checked the
 * old way at most once. The replacement only takes a row that still holds that exact hash: of two
 * sign-ins at the same moment, the second finds it gone and leaves the first one's Argon2id hash.
 */
export function verifyStoredPassword(db: Database) {
  return async ({ hash, password }: { hash: string; password: string }): Promise<boolean> => {
    if (!hash.startsWith(FIREBASE_HASH_PREFIX)) return verifyPassword({ hash, password });
    const stored = decodeFirebaseHash(hash);
    if (!stored || !(await verifyFirebaseScrypt(password, stored, stored.config))) return false;
    const upgraded = await hashPassword(password);
    await db.transaction(async (tx) => {
      const [account] = await tx
        .update(accounts)
        .set({ password: upgraded })
        .where(and(eq(accounts.providerId, "credential"), eq(accounts.password, hash)))
        .returning({ userId: accounts.userId });
      if (!account) return;
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, account.userId));
      await recordAudit(tx, {
        action: "user.password_rehashed",
        outcome: "success",
        actorUserId: account.userId,
        actorEmail: user?.email ?? null,
        targetType: "user",
        targetId: account.userId,
        details: { from: "firebase-scrypt", to: "argon2id" },
      });
    });
    return true;
  };
}
