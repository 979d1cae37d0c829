import type { TRole } from "@portal/contracts";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { accounts, sessions, users } from "../db/schema.ts";
import type { Auth } from "./auth.ts";
import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword } from "./password.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@portal/contracts";

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  return undefined;
}

export interface EnsureUserInput {
  email: string;
  name: string;
  password: string;
  role: TRole;
  /** Existing user: also reset the password and role (used for ADMIN_EMAIL/ADMIN_PASSWORD). */
  resetExisting: boolean;
}

/**
 * Creates a sign-in account with a password credential, or (with resetExisting) resets an
 * existing one's password and role, re-enables it and ends its sessions. Server-side only.
 * Answers what it did and the account's id.
 */
export async function ensureUser(
  auth: Auth,
  db: Database,
  input: EnsureUserInput,
): Promise<{ status: "created" | "updated" | "unchanged"; userId: string }> {
  const problem = passwordProblem(input.password);
  if (problem) throw new Error(`${input.email}: ${problem}`);
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select().from(users).where(eq(users.email, email));
  if (existing && !input.resetExisting) return { status: "unchanged", userId: existing.id };

  const ctx = await auth.$context;
  const hash = await hashPassword(input.password);
  if (!existing) {
    const user = await ctx.internalAdapter.createUser({
      email,
      name: input.name,
      emailVerified: true,
      role: input.role,
    });
    await ctx.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: hash,
    });
    await recordAudit(db, {
      action: "user.created",
      outcome: "success",
      actorEmail: "system",
      targetType: "user",
      targetId: user.id,
      after: { email, name: input.name, role: input.role },
    });
    return { status: "created", userId: user.id };
  }

  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ role: input.role, banned: false, banReason: null, banExpires: null })
      .where(eq(users.id, existing.id));
    const updated = await tx
      .update(accounts)
      .set({ password: hash })
      .where(and(eq(accounts.userId, existing.id), eq(accounts.providerId, "credential")))
      .returning({ id: accounts.id });
    if (updated.length === 0) {
      await tx.insert(accounts).values({
        id: crypto.randomUUID(),
        userId: existing.id,
        providerId: "credential",
        accountId: existing.id,
        password: hash,
      });
    }
    await tx.delete(sessions).where(eq(sessions.userId, existing.id));
    await recordAudit(tx, {
      action: "user.credentials_reset",
      outcome: "success",
      actorEmail: "system",
      targetType: "user",
      targetId: existing.id,
      before: { role: existing.role, banned: existing.banned },
      after: { role: input.role, banned: false },
    });
  });
  return { status: "updated", userId: existing.id };
}
