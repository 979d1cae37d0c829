import type { TRole } from "@portal/contracts";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import type { Database, Executor, Transaction } from "../db/client.ts";
import { accounts, clients, employees, sessions, users } from "../db/schema.ts";
import type { ApiErrorCode } from "@portal/contracts";
import { AppError } from "../lib/errors.ts";
import { hashPassword, passwordProblem, verifyPassword, type PasswordOwner } from "./password.ts";

/**
 * The accounts module: every sign-in account the portal creates and every password it sets goes through
 * here (Add Client, Add Employee, ADMIN_EMAIL, admin:create, the demo seed), under one password policy
 * (`password.ts`). Better Auth's own paths (self sign-up, password reset and change) apply the same policy
 * in its hooks (`auth/hooks/policy.ts`). The Firebase import creates accounts with the passwords people
 * already had, which no policy can check until they are changed (`createImportedAccount`, decision 012).
 */

export const PASSWORD_POLICY = "PASSWORD_POLICY" satisfies ApiErrorCode;

/**
 * Checks a new password against the policy and hashes it (Argon2id). Hashing is slow on purpose, so
 * callers do it before opening their transaction. A refused password is a 400 naming the field.
 */
export async function newPasswordHash(password: string, owner: PasswordOwner): Promise<string> {
  const problem = passwordProblem(password, owner);
  if (problem) throw new AppError(400, `password: ${problem}`, PASSWORD_POLICY);
  return hashPassword(password);
}

/** Replaces (or adds) the account's password credential. */
async function setCredential(tx: Transaction, userId: string, passwordHash: string) {
  const updated = await tx
    .update(accounts)
    .set({ password: passwordHash })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .returning({ id: accounts.id });
  if (updated.length === 0) {
    await tx.insert(accounts).values({
      id: crypto.randomUUID(),
      userId,
      providerId: "credential",
      accountId: userId,
      password: passwordHash,
    });
  }
}

export interface NewAccount {
  email: string;
  name: string;
  role: TRole;
  /** From `newPasswordHash`; null: no password yet, the person chooses one through an invitation (D55). */
  passwordHash: string | null;
}

/**
 * Creates the sign-in account (user + password credential) inside the caller's transaction. An email
 * that belonged to a deleted client or employee (sign-in disabled and no record left) is given a fresh
 * start; a delegate's account (issue 23: role `delegate`, no record) becomes the new role and keeps its
 * password and two-step verification; any other existing email is a conflict.
 */
export async function createSignInAccount(tx: Transaction, input: NewAccount): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await tx.select().from(users).where(eq(users.email, email)).for("update");
  if (existing) {
    const [asClient] = await tx
      .select({ id: clients.cId })
      .from(clients)
      .where(eq(clients.userId, existing.id));
    const [asEmployee] = await tx
      .select({ id: employees.eId })
      .from(employees)
      .where(eq(employees.userId, existing.id));
    if (existing.role === "delegate" && !existing.banned && !asClient && !asEmployee) {
      return promoteDelegate(tx, existing.id, input);
    }
    if (!existing.banned || asClient || asEmployee) {
      throw new AppError(409, "A user with this email already exists.", "DUPLICATE_EMAIL");
    }
    await tx
      .update(users)
      .set({ name: input.name, role: input.role, banned: false, banReason: null, banExpires: null })
      .where(eq(users.id, existing.id));
    await tx.delete(accounts).where(eq(accounts.userId, existing.id));
    if (input.passwordHash !== null) await setCredential(tx, existing.id, input.passwordHash);
    return existing.id;
  }
  const userId = crypto.randomUUID();
  await tx
    .insert(users)
    .values({ id: userId, name: input.name, email, emailVerified: true, role: input.role });
  if (input.passwordHash !== null) await setCredential(tx, userId, input.passwordHash);
  return userId;
}

/**
 * A delegate made a client or employee: the person keeps the sign-in they have (password, two-step
 * verification, sessions) and their delegations; the firm's password is set only where they have none yet.
 */
async function promoteDelegate(tx: Transaction, userId: string, input: NewAccount): Promise<string> {
  await tx.update(users).set({ name: input.name, role: input.role }).where(eq(users.id, userId));
  if (input.passwordHash !== null && !(await hasPassword(tx, userId))) {
    await setCredential(tx, userId, input.passwordHash);
  }
  return userId;
}

/**
 * `createSignInAccount` for a batch of new emails (the CSV import, whose rows were checked against the
 * existing accounts first): the users and their credentials in two statements.
 */
export async function createSignInAccountsInBulk(
  tx: Transaction,
  role: NewAccount["role"],
  people: { id: string; name: string; email: string; passwordHash: string | null }[],
): Promise<void> {
  if (people.length === 0) return;
  await tx
    .insert(users)
    .values(people.map((p) => ({ id: p.id, name: p.name, email: p.email, emailVerified: true, role })));
  const withPassword = people.filter((p) => p.passwordHash !== null);
  if (withPassword.length === 0) return;
  await tx.insert(accounts).values(
    withPassword.map((p) => ({
      id: crypto.randomUUID(),
      userId: p.id,
      providerId: "credential",
      accountId: p.id,
      password: p.passwordHash!,
    })),
  );
}

/** Whether the account has a password to sign in with (an invited person has none until they accept). */
export async function hasPassword(tx: Executor, userId: string): Promise<boolean> {
  const [credential] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
  return credential !== undefined;
}

/**
 * An invited person's first password (the invitation page): checked against the policy by the caller with
 * `newPasswordHash`, set inside the caller's transaction.
 */
export async function setFirstPassword(tx: Transaction, userId: string, passwordHash: string) {
  await setCredential(tx, userId, passwordHash);
}

export interface ImportedAccount {
  email: string;
  name: string;
  image: string | null;
  role: TRole;
  /** Disabled where it came from: stays unable to sign in. */
  banned: boolean;
  banReason: string | null;
  /** The old provider's hash in a form `stored-password.ts` verifies; null: the person sets one by reset. */
  passwordHash: string | null;
}

/**
 * Creates an account brought over from another identity provider (`npm run import:firebase`) inside the
 * caller's transaction. Its address counts as confirmed, as for accounts the firm adds (DEVIATIONS D49).
 * An email that already has an account is left alone, whatever its state: answers undefined then.
 */
export async function createImportedAccount(
  tx: Transaction,
  input: ImportedAccount,
): Promise<string | undefined> {
  const [created] = await tx
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      name: input.name,
      email: input.email.trim().toLowerCase(),
      emailVerified: true,
      image: input.image,
      role: input.role,
      banned: input.banned,
      banReason: input.banReason,
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (!created) return undefined;
  if (input.passwordHash !== null) await setCredential(tx, created.id, input.passwordHash);
  return created.id;
}

/** Deleting a client or employee disables their sign-in and ends their sessions at once. */
export async function disableSignIn(tx: Transaction, userId: string, reason: string) {
  await tx.update(users).set({ banned: true, banReason: reason }).where(eq(users.id, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
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
 * existing one's password and role, re-enables it and ends its sessions; an account that already has
 * that password and role, and is enabled, is left as it is ("unchanged"). Server-side only
 * (ADMIN_EMAIL, admin:create, the demo seed). Answers what it did and the account's id.
 */
export async function ensureUser(
  db: Database,
  input: EnsureUserInput,
): Promise<{ status: "created" | "updated" | "unchanged"; userId: string }> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select().from(users).where(eq(users.email, email));
  if (existing && !input.resetExisting) return { status: "unchanged", userId: existing.id };
  const problem = passwordProblem(input.password, { email, name: input.name });
  if (problem) throw new AppError(400, `${input.email}: ${problem}`, PASSWORD_POLICY);
  // Already so (every instance of a deployment ensures ADMIN_EMAIL at boot): nothing to reset, and the
  // admin's sessions are not ended by an instance restarting.
  if (existing && existing.role === input.role && !existing.banned) {
    const [credential] = await db
      .select({ password: accounts.password })
      .from(accounts)
      .where(and(eq(accounts.userId, existing.id), eq(accounts.providerId, "credential")));
    if (
      credential?.password &&
      (await verifyPassword({ hash: credential.password, password: input.password }))
    ) {
      return { status: "unchanged", userId: existing.id };
    }
  }
  const passwordHash = await hashPassword(input.password);

  if (!existing) {
    const userId = await db.transaction(async (tx) => {
      const id = await createSignInAccount(tx, { email, name: input.name, role: input.role, passwordHash });
      await recordAudit(tx, {
        action: "user.created",
        outcome: "success",
        actorEmail: "system",
        targetType: "user",
        targetId: id,
        after: { email, name: input.name, role: input.role },
      });
      return id;
    });
    return { status: "created", userId };
  }

  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ role: input.role, banned: false, banReason: null, banExpires: null })
      .where(eq(users.id, existing.id));
    await setCredential(tx, existing.id, passwordHash);
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
