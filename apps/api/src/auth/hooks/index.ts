import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { recordAudit } from "../../audit/audit.ts";
import type { Database } from "../../db/client.ts";
import { auditConcern } from "./audit.ts";
import { enumerationConcern } from "./enumeration.ts";
import { isAudited, sourceOf, type Concern, type HookContext, type PortalHook } from "./context.ts";

export interface PortalAuthHooks {
  /** In order: the first refusal wins (lock before the two-step gate before the password policy). */
  concerns: Concern[];
  db: Database;
}

/**
 * What the portal adds around Better Auth's endpoints, as one Better Auth plugin (placed after the
 * two-factor plugin, so its after hooks see the two-factor answer). Each concern is its own file: the
 * per-account lock (`lock.ts`), the two-step gate (`two-step.ts`), the password policy and sign-up rule
 * (`policy.ts`) and the audit of outcomes (`audit.ts`). Hooks see the endpoint Better Auth matched and
 * the body it parsed, so every spelling and body encoding Better Auth accepts passes through them.
 */
export function portalAuthPlugin({ concerns, db }: PortalAuthHooks): BetterAuthPlugin {
  const all = [...concerns, enumerationConcern, auditConcern(db)];
  const phase = (hooks: PortalHook[], refusalsAudited: boolean) =>
    hooks.map((hook) => ({
      matcher: (ctx: { path?: string }) => !!ctx.path && hook.paths(ctx.path),
      handler: createAuthMiddleware(async (ctx) => {
        try {
          return await hook.run(ctx);
        } catch (error) {
          if (refusalsAudited && isAPIError(error) && !isAudited(error)) await auditRefusal(db, ctx, error);
          throw error;
        }
      }),
    }));
  return {
    id: "portal",
    hooks: {
      before: phase(
        all.flatMap((c) => c.before ?? []),
        true,
      ),
      after: phase(
        all.flatMap((c) => c.after ?? []),
        false,
      ),
    },
  };
}

/** Every refusal before an endpoint runs leaves a row (the concerns that know more record their own). */
async function auditRefusal(db: Database, ctx: HookContext, error: { statusCode: number; body?: unknown }) {
  const code = (error.body as { code?: string } | undefined)?.code ?? null;
  await recordAudit(db, {
    action: "auth.request_refused",
    outcome: error.statusCode === 429 ? "rate_limited" : "denied",
    details: { path: ctx.path, status: error.statusCode, code },
    ...sourceOf(ctx),
  });
}
