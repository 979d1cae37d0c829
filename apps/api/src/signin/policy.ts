import { POLICY_MFA_ROLES, type TRole, type TSignInPolicy } from "@portal/contracts";
import { eq, sql } from "drizzle-orm";
import { auditActor, type Actor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { AppConfig } from "../config.ts";
import type { Database, Executor } from "../db/client.ts";
import { firmPolicies } from "../db/schema.ts";

/** The one row of the firm's policies (shared with circle/policies.ts). */
const POLICY_ROW = 1;

/**
 * The firm's sign-in policy (issue 24), in the `firm_policies` row: which roles must have a second step, and
 * whether a code by email may be that step. Until an admin first saves it, MFA_REQUIRED_ROLES (the start-up
 * default) decides; once saved, admins are always among the required roles. Delegates see a client's data, so
 * "clients" covers them too.
 */
export interface EffectiveSignInPolicy {
  /** The roles that must have a second step (portal roles, delegates included with clients). */
  requiredRoles: TRole[];
  emailCodes: boolean;
}

type PolicyConfig = Pick<AppConfig, "mfaRequiredRoles">;

function withDelegates(roles: TRole[]): TRole[] {
  return roles.includes("client") && !roles.includes("delegate") ? [...roles, "delegate"] : roles;
}

/** The policy as it applies now (read from the database on every call; callers cache with the principal). */
export async function effectiveSignInPolicy(
  db: Executor,
  config: PolicyConfig,
): Promise<EffectiveSignInPolicy> {
  const [row] = await db
    .select({ mfaRequiredRoles: firmPolicies.mfaRequiredRoles, emailCodes: firmPolicies.emailCodes })
    .from(firmPolicies)
    .where(eq(firmPolicies.id, POLICY_ROW));
  const saved = row?.mfaRequiredRoles;
  const requiredRoles = saved ? (["admin", ...saved] as TRole[]) : config.mfaRequiredRoles;
  return { requiredRoles: withDelegates(requiredRoles), emailCodes: row?.emailCodes ?? false };
}

/** The setting as /admin/settings shows it: the roles besides admin, and email codes. */
export async function signInPolicySetting(db: Executor, config: PolicyConfig): Promise<TSignInPolicy> {
  const { requiredRoles, emailCodes } = await effectiveSignInPolicy(db, config);
  return {
    mfaRequiredRoles: POLICY_MFA_ROLES.filter((role) => requiredRoles.includes(role)),
    emailCodes,
  };
}

/** Saves the setting with its audit row (before and after) in one transaction. */
export async function saveSignInPolicy(
  db: Database,
  config: PolicyConfig,
  setting: TSignInPolicy,
  actor: Actor,
): Promise<TSignInPolicy> {
  const after: TSignInPolicy = {
    mfaRequiredRoles: POLICY_MFA_ROLES.filter((role) => setting.mfaRequiredRoles.includes(role)),
    emailCodes: setting.emailCodes,
  };
  return db.transaction(async (tx) => {
    // The row lock (or the insert's conflict) puts concurrent saves in one order (see circle/policies.ts).
    await tx
      .select({ id: firmPolicies.id })
      .from(firmPolicies)
      .where(eq(firmPolicies.id, POLICY_ROW))
      .for("update");
    const before = await signInPolicySetting(tx, config);
    const values = {
      mfaRequiredRoles: after.mfaRequiredRoles,
      emailCodes: after.emailCodes,
      updatedBy: actor.userId,
    };
    await tx
      .insert(firmPolicies)
      .values({ id: POLICY_ROW, ...values })
      .onConflictDoUpdate({ target: firmPolicies.id, set: { ...values, updatedAt: sql`now()` } });
    await recordAudit(tx, {
      action: "policy.updated",
      outcome: "success",
      targetType: "policy",
      targetId: "sign-in",
      before,
      after,
      ...auditActor(actor),
    });
    return after;
  });
}
