import type { passkey } from "@better-auth/passkey";
import { requiresTwoFactor, type ApiErrorCode } from "@portal/contracts";
import { APIError } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { and, count, eq, sql } from "drizzle-orm";
import { recordAudit } from "../../audit/audit.ts";
import type { AppConfig } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { passkeys, sessions, users } from "../../db/schema.ts";
import type { EffectiveSignInPolicy } from "../../signin/policy.ts";
import {
  needsPasskeySignIn,
  PASSKEY_SIGN_IN_REQUIRED,
  PASSKEY_SIGN_IN_REQUIRED_MESSAGE,
} from "../enrolment.ts";
import {
  alreadyAudited,
  authError,
  bodyOf,
  onPath,
  outcomeOf,
  secondStepFacts,
  signedInPerson,
  sourceOf,
  type Concern,
  type HookContext,
} from "./context.ts";

type PasskeyOptions = NonNullable<Parameters<typeof passkey>[0]>;

export const PASSKEY_NOT_VERIFIED = "PASSKEY_NOT_VERIFIED" satisfies ApiErrorCode;
export const LAST_SECOND_STEP = "LAST_SECOND_STEP" satisfies ApiErrorCode;

/**
 * Better Auth's passkey plugin as the portal uses it (issue 24, decision 021): the relying party is PUBLIC_URL
 * (its host the RP id, its origin the only origin), every passkey is discoverable (sign-in without typing an
 * email, autofill) and proves its user (a PIN or biometric: the plugin asks for it but does not require it, so
 * both ceremonies are refused here without the user-verified flag). A passkey sign-in is then two steps in one.
 */
export function passkeyOptions(config: Pick<AppConfig, "publicUrl">, db: Database): PasskeyOptions {
  const url = new URL(config.publicUrl);
  const notVerified = () =>
    new APIError("BAD_REQUEST", {
      code: PASSKEY_NOT_VERIFIED,
      message:
        "This passkey did not confirm it is you (no PIN, fingerprint or face). Use a passkey that does.",
    });
  return {
    rpID: url.hostname,
    rpName: "Meridian Client Portal",
    origin: url.origin,
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    registration: {
      afterVerification: async ({ verification }) => {
        if (!verification.registrationInfo?.userVerified) throw notVerified();
      },
    },
    authentication: {
      afterVerification: async ({ verification }) => {
        if (!verification.authenticationInfo.userVerified) throw notVerified();
        await db
          .update(passkeys)
          .set({ lastUsedAt: sql`now()` })
          .where(eq(passkeys.credentialID, verification.authenticationInfo.credentialID));
      },
    },
  };
}

export interface PasskeyDeps {
  db: Database;
  policy: () => Promise<EffectiveSignInPolicy>;
}

/** The owner of the passkey a sign-in attempt presents (its credential id is the response's `id`). */
export async function passkeyOwner(
  db: Database,
  ctx: HookContext,
): Promise<{ userId: string; email: string } | null> {
  const response = bodyOf(ctx).response;
  const credentialId =
    response && typeof response === "object" ? (response as { id?: unknown }).id : undefined;
  if (typeof credentialId !== "string" || credentialId.length === 0 || credentialId.length > 1024)
    return null;
  const [row] = await db
    .select({ userId: users.id, email: users.email })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialID, credentialId));
  return row ?? null;
}

/**
 * The portal's rules around passkeys: removing one is refused when it is the last second step of someone who
 * must have one (checked and done in one transaction, so two removals at once cannot both pass); a password
 * sign-in of someone whose only second step is a passkey is turned down (they sign in with the passkey); adding,
 * renaming and removing are audited; a passkey added right after the password makes that session two-step.
 */
export function passkeyConcern({ db, policy }: PasskeyDeps): Concern {
  return {
    before: [
      {
        paths: onPath("/passkey/delete-passkey"),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          const id = bodyOf(ctx).id;
          if (!person || typeof id !== "string") return; // Better Auth answers 401 / 400 itself.
          const { requiredRoles } = await policy();
          const refused = await db.transaction(async (tx) => {
            // The person's row, locked: their removals (and second-step changes) happen one after another.
            await tx.select({ id: users.id }).from(users).where(eq(users.id, person.userId)).for("update");
            const [owned] = await tx
              .select({ id: passkeys.id, name: passkeys.name })
              .from(passkeys)
              .where(and(eq(passkeys.id, id), eq(passkeys.userId, person.userId)));
            if (!owned) return undefined; // Not theirs or gone: the plugin answers (404/401) and audits nothing.
            const [{ left = 0 } = {}] = await tx
              .select({ left: count() })
              .from(passkeys)
              .where(eq(passkeys.userId, person.userId));
            const lastOne =
              !person.twoFactorEnabled && left <= 1 && requiresTwoFactor(person.role, requiredRoles);
            await recordAudit(tx, {
              action: "auth.passkey.removed",
              outcome: lastOne ? "denied" : "success",
              actorUserId: person.userId,
              actorEmail: person.email,
              targetType: "passkey",
              targetId: owned.id,
              details: { name: owned.name, ...(lastOne && { code: LAST_SECOND_STEP }) },
              ...sourceOf(ctx),
            });
            if (lastOne) return true;
            await tx.delete(passkeys).where(eq(passkeys.id, owned.id));
            return false;
          });
          if (refused === undefined) return;
          if (refused) {
            throw alreadyAudited(
              authError(
                "FORBIDDEN",
                LAST_SECOND_STEP,
                "This passkey is your only second step, and the firm requires one. Add another passkey or an authenticator app first.",
              ),
            );
          }
          return ctx.json({ status: true });
        },
      },
    ],
    after: [
      {
        // The plugin lists only its own fields: the portal's "last used" is added from the same rows.
        paths: onPath("/passkey/list-user-passkeys"),
        run: async (ctx) => {
          const listed = ctx.context.returned;
          const person = await signedInPerson(ctx);
          if (!person || !Array.isArray(listed)) return;
          const used = await db
            .select({ id: passkeys.id, lastUsedAt: passkeys.lastUsedAt })
            .from(passkeys)
            .where(eq(passkeys.userId, person.userId));
          const lastUsed = new Map(used.map((row) => [row.id, row.lastUsedAt]));
          return ctx.json(
            (listed as Record<string, unknown>[]).map((row) => ({
              ...row,
              lastUsedAt: lastUsed.get(String(row.id))?.toISOString() ?? null,
            })),
          );
        },
      },
      {
        paths: onPath("/passkey/verify-registration", "/passkey/update-passkey"),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          const result = outcomeOf(ctx);
          if (!person || !result.ok) return;
          const added = ctx.path === "/passkey/verify-registration";
          const row =
            (added ? result.body : (result.body.passkey as Record<string, unknown> | undefined)) ?? {};
          await recordAudit(db, {
            action: added ? "auth.passkey.added" : "auth.passkey.renamed",
            outcome: "success",
            actorUserId: person.userId,
            actorEmail: person.email,
            targetType: "passkey",
            ...(typeof row.id === "string" && { targetId: row.id }),
            details: { name: typeof row.name === "string" ? row.name : null },
            ...sourceOf(ctx),
          });
          // The password, then a passkey made just now: this session took two steps.
          const sessionId = ctx.context.session?.session.id;
          if (added && sessionId) {
            await db
              .update(sessions)
              .set({ signInMethod: "password_passkey" })
              .where(and(eq(sessions.id, sessionId), eq(sessions.signInMethod, "password")));
          }
        },
      },
      {
        // Someone who must have a second step and whose only one is a passkey signs in with the passkey: a
        // password alone makes no session for them (the one Better Auth just made is ended at once).
        paths: onPath("/sign-in/email"),
        run: async (ctx) => {
          const made = ctx.context.newSession;
          if (!made || !outcomeOf(ctx).ok) return;
          const facts = await secondStepFacts(db, made.user.id);
          if (
            !facts ||
            !needsPasskeySignIn({ ...facts, signInMethod: "password" }, (await policy()).requiredRoles)
          ) {
            return;
          }
          await ctx.context.internalAdapter.deleteSession(made.session.token);
          deleteSessionCookie(ctx);
          throw authError("FORBIDDEN", PASSKEY_SIGN_IN_REQUIRED, PASSKEY_SIGN_IN_REQUIRED_MESSAGE);
        },
      },
    ],
  };
}
