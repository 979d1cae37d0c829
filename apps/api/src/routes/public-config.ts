import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type TPublicConfig } from "@portal/contracts";
import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { effectiveSignInPolicy, type EffectiveSignInPolicy } from "../signin/policy.ts";

export function publicConfig(config: AppConfig, policy: EffectiveSignInPolicy): TPublicConfig {
  const socialProviders: TPublicConfig["socialProviders"] = [];
  if (config.social.google) socialProviders.push({ id: "google", name: "Google" });
  if (config.social.microsoft) socialProviders.push({ id: "microsoft", name: "Microsoft" });
  if (config.social.github) socialProviders.push({ id: "github", name: "GitHub" });
  if (config.social.apple) socialProviders.push({ id: "apple", name: "Apple" });
  if (config.oidc) socialProviders.push({ id: "oidc", name: config.oidc.name });
  return {
    signUpEnabled: config.signUpDomains.length > 0,
    signUpDomains: config.signUpDomains,
    socialProviders,
    passwordMinLength: PASSWORD_MIN_LENGTH,
    passwordMaxLength: PASSWORD_MAX_LENGTH,
    mfaRequiredRoles: policy.requiredRoles,
    emailCodes: policy.emailCodes,
  };
}

/** The whitelisted, non-secret subset of the configuration that the browser may read. */
export async function publicConfigRoutes(
  app: FastifyInstance,
  { config, db }: { config: AppConfig; db: Database },
) {
  // The firm's sign-in policy can change at any time (/admin/settings): read with every answer.
  app.get("/api/config", { config: { public: true } }, async () =>
    publicConfig(config, await effectiveSignInPolicy(db, config)),
  );
}
