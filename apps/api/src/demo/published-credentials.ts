import { DEMO_ADMIN, DEMO_CLIENTS, DEMO_EMPLOYEE } from "@portal/contracts/demo";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, inArray } from "drizzle-orm";
import { verifyPassword } from "../accounts/password.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { accounts, sessions, twoFactors, users } from "../db/schema.ts";

/** The command that retires them (named in the start-up refusal). */
export const RETIRE_DEMO_COMMAND = "npm run demo:retire";

/** The demo firm's sign-ins, published in the README and printed at start. */
const PUBLISHED_PASSWORDS: ReadonlyArray<{ email: string; password: string }> = [
  DEMO_ADMIN,
  ...DEMO_CLIENTS,
  DEMO_EMPLOYEE,
];

export interface PublishedCredential {
  userId: string;
  email: string;
  what: "demo password" | "demo two-step verification key";
}

/**
 * Accounts that still sign in with a published demo password or the published demo TOTP key. A production
 * portal refuses to start while any exists (server.ts): whoever knows the README could sign in.
 * `secretConfig` is Better Auth's, which encrypts the TOTP secrets.
 */
export async function findPublishedCredentials(
  db: Database,
  secretConfig: Parameters<typeof symmetricDecrypt>[0]["key"],
): Promise<PublishedCredential[]> {
  const found: PublishedCredential[] = [];
  const withPasswords = await db
    .select({ userId: users.id, email: users.email, hash: accounts.password })
    .from(users)
    .innerJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, "credential")))
    .where(
      and(
        inArray(
          users.email,
          PUBLISHED_PASSWORDS.map((p) => p.email),
        ),
        eq(users.banned, false),
      ),
    );
  for (const row of withPasswords) {
    const published = PUBLISHED_PASSWORDS.find((p) => p.email === row.email)!;
    if (row.hash && (await verifyPassword({ hash: row.hash, password: published.password }))) {
      found.push({ userId: row.userId, email: row.email, what: "demo password" });
    }
  }
  const enrolments = await db
    .select({ userId: users.id, email: users.email, secret: twoFactors.secret })
    .from(twoFactors)
    .innerJoin(users, eq(users.id, twoFactors.userId));
  for (const row of enrolments) {
    const secret = await symmetricDecrypt({ key: secretConfig, data: row.secret }).catch(() => null);
    if (secret === DEMO_ADMIN.totpSecret) {
      found.push({ userId: row.userId, email: row.email, what: "demo two-step verification key" });
    }
  }
  return found;
}

/** The start-up refusal: what was found and the command that retires it. */
export function publishedCredentialsMessage(found: PublishedCredential[]): string {
  return [
    "Refusing to start in production: these accounts sign in with credentials published in the README:",
    ...found.map((f) => `  - ${f.email} (${f.what})`),
    `Run \`${RETIRE_DEMO_COMMAND}\` with the same environment to disable them (or give each a new password`,
    "with `npm run admin:create -- --email <email> --password <new> --reset-two-factor` for an admin).",
  ].join("\n");
}

/**
 * Retires accounts with published credentials: sign-in disabled, password and two-step verification
 * removed, sessions ended, each audited, in one transaction. Their client or employee records stay for an
 * admin to delete.
 */
export async function retirePublishedCredentials(db: Database, found: PublishedCredential[]) {
  const userIds = [...new Set(found.map((f) => f.userId))];
  if (userIds.length === 0) return 0;
  await db.transaction(async (tx) => {
    for (const userId of userIds) {
      await tx
        .update(users)
        .set({ banned: true, banReason: "Demo account retired", twoFactorEnabled: false })
        .where(eq(users.id, userId));
      await tx
        .delete(accounts)
        .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
      await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
      await tx.delete(sessions).where(eq(sessions.userId, userId));
      await recordAudit(tx, {
        action: "user.demo_retired",
        outcome: "success",
        actorEmail: "system (demo:retire)",
        targetType: "user",
        targetId: userId,
        details: { found: found.filter((f) => f.userId === userId).map((f) => f.what) },
      });
    }
  });
  return userIds.length;
}
